/** @mcp (ours): `Client` over `StreamableHttpTransport` (@mcp/core) or `StdioTransport` (@mcp/node-stdio), built dist. */

/** @type {import('./adapter.mjs').Load} */
export async function load(kind) {
  const { Client, StreamableHttpTransport } = await import('@mcp/core');
  const stdio = kind === 'stdio' ? await import('@mcp/node-stdio') : undefined;
  return (target) => {
    const transport =
      target.kind === 'stdio' && stdio
        ? new stdio.StdioTransport({ command: target.command, args: target.args })
        : new StreamableHttpTransport(target.url);
    const client = new Client(transport, { clientInfo: { name: 'bench', version: '1.0.0' } });
    return {
      connect: () => client.connect(),
      call: async (name, args) => (await client.callTool(name, args)).content,
      close: () => client.close(),
      era: () => client.protocolVersion,
    };
  };
}

/** The official v1 SDK (`@modelcontextprotocol/sdk` 1.x): `Client` with its Streamable HTTP or stdio transport. */

/** Its stdio default (10 MiB) refuses the 20 MB result; raised to @mcp's default. */
const MAX_MESSAGE = 64 * 1024 * 1024;

/** @type {import('./adapter.mjs').Load} */
export async function load(kind) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } =
    kind === 'http' ? await import('@modelcontextprotocol/sdk/client/streamableHttp.js') : {};
  const { StdioClientTransport } = kind === 'stdio' ? await import('@modelcontextprotocol/sdk/client/stdio.js') : {};
  return (target) => {
    const transport =
      target.kind === 'stdio' && StdioClientTransport
        ? new StdioClientTransport({ command: target.command, args: target.args ?? [], maxBufferSize: MAX_MESSAGE })
        : target.kind === 'http' && StreamableHTTPClientTransport
          ? new StreamableHTTPClientTransport(new URL(target.url))
          : undefined;
    if (transport === undefined) throw new Error(`sdk-v1 was loaded for another kind than ${target.kind}`);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    return {
      connect: () => client.connect(transport),
      call: async (name, args) => (await client.callTool({ name, arguments: args })).content,
      close: () => client.close(),
      era: () => ('protocolVersion' in transport ? transport.protocolVersion : undefined) ?? 'legacy',
    };
  };
}

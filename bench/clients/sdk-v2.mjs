/**
 * The official v2 SDK (`@modelcontextprotocol/client` 2.x). Its default
 * negotiation is the 2025 handshake; against the 2026-07-28 server it is given
 * `versionNegotiation: { mode: 'auto' }` (probe with `server/discover`), the
 * setting a user of that server would choose.
 */

/** Its stdio default (10 MiB) refuses the 20 MB result; raised to @mcp's default. */
const MAX_MESSAGE = 64 * 1024 * 1024;

/** @type {import('./adapter.mjs').Load} */
export async function load(kind) {
  const sdk = await import('@modelcontextprotocol/client');
  const stdio = kind === 'stdio' ? await import('@modelcontextprotocol/client/stdio') : undefined;
  return (target) => {
    const transport =
      target.kind === 'stdio' && stdio
        ? new stdio.StdioClientTransport({
            command: target.command,
            args: target.args ?? [],
            maxBufferSize: MAX_MESSAGE,
          })
        : new sdk.StreamableHTTPClientTransport(new URL(target.url));
    const modern = target.kind === 'http' && target.mode === 'modern';
    const client = new sdk.Client(
      { name: 'bench', version: '1.0.0' },
      modern ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    return {
      connect: () => client.connect(transport),
      call: async (name, args) => (await client.callTool({ name, arguments: args })).content,
      close: () => client.close(),
      era: () => client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion,
    };
  };
}

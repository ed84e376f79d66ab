/**
 * Vercel's `@ai-sdk/mcp` 1.0.x (2.x declares Node >= 22). It has no public
 * `callTool`: tools are called through `execute` of the AI SDK tool set, built
 * here from static definitions (`toolsFromDefinitions`) so no `tools/list`
 * round trip is added. `createMCPClient` connects (initialize) as it is created.
 */

const DEFINITIONS = {
  tools: [
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    { name: 'big', inputSchema: { type: 'object', properties: {} } },
  ],
};

/** @type {import('./adapter.mjs').Load} */
export async function load(kind) {
  const { createMCPClient } = await import('@ai-sdk/mcp');
  const stdio = kind === 'stdio' ? await import('@ai-sdk/mcp/mcp-stdio') : undefined;
  return (target) => {
    /** @type {Awaited<ReturnType<typeof createMCPClient>> | undefined} */
    let client;
    /** @type {Record<string, { execute: (args: object, options: object) => Promise<any> }>} */
    let tools = {};
    const options = { toolCallId: 'bench', messages: [] };
    return {
      async connect() {
        const transport =
          target.kind === 'stdio' && stdio
            ? new stdio.Experimental_StdioMCPTransport({ command: target.command, args: target.args ?? [] })
            : { type: /** @type {const} */ ('http'), url: target.url };
        client = await createMCPClient({ transport });
        tools = /** @type {any} */ (client.toolsFromDefinitions(DEFINITIONS));
      },
      call: async (name, args) => (await tools[name].execute(args, options)).content,
      close: async () => client?.close(),
      era: () => 'legacy',
    };
  };
}

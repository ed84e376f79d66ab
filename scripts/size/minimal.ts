// The smallest realistic browser program: connect a Client over Streamable HTTP,
// list the tools, call one. scripts/bundle-size.mjs bundles it (split at dynamic
// imports) and runs it against real servers to measure the bytes an app loads for
// @mcp/core, every dependency included.
import { Client, StreamableHttpTransport } from '@mcp/core';

export async function run(url: string): Promise<string> {
  const client = new Client(new StreamableHttpTransport(url), {
    clientInfo: { name: 'minimal-app', version: '1.0.0' },
  });
  await client.connect();
  const tools = await client.listTools();
  const first = tools[0];
  const result = first ? await client.callTool(first.name, {}) : undefined;
  await client.close();
  return result?.text ?? '';
}

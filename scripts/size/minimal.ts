// The smallest realistic browser program: connect a Client, list the tools, call
// one. scripts/bundle-size.mjs bundles it to measure what an app pays for @mcp/core.
// TODO(http transport): connect over StreamableHttpTransport once it exists; the
// in-memory pair stands in for the network until then.
import { Client, MemoryTransport } from '@mcp/core';

export async function run(): Promise<string> {
  const [transport] = MemoryTransport.createPair();
  const client = new Client(transport, { clientInfo: { name: 'minimal-app', version: '1.0.0' } });
  await client.connect();
  const tools = await client.listTools();
  const first = tools[0];
  const result = first ? await client.callTool(first.name, {}) : undefined;
  await client.close();
  return result?.text ?? '';
}

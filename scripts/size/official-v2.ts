// The same program as minimal.ts written with the official v2 client
// (@modelcontextprotocol/client, installed for the benchmark in bench/), for comparison.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export async function run(url: string): Promise<string> {
  const client = new Client({ name: 'minimal-app', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  const first = tools[0];
  const result = first ? await client.callTool({ name: first.name, arguments: {} }) : undefined;
  await client.close();
  const part = (result?.content as Array<{ type: string; text?: string }> | undefined)?.[0];
  return part?.type === 'text' ? (part.text ?? '') : '';
}

import { createServer } from 'node:http';
import { Client, StreamableHttpTransport } from '@mcp/core';
import { expect, it } from 'vitest';
// @ts-expect-error plain JS
import { createModesListener } from '../../../../test-servers/http/modes.mjs';

it('smoke', async () => {
  const modes = createModesListener();
  const server = createServer(modes.listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  for (const path of ['/stateful', '/stateless', '/resumable', '/v2', '/legacy-sse']) {
    const errors: Error[] = [];
    const seen: string[] = [];
    const client = new Client(new StreamableHttpTransport(base + path), {
      onError: (e) => errors.push(e),
      onNotification: (m) => seen.push(m),
      elicitation: async () => ({ action: 'accept', content: { name: 'x' } }),
    });
    await client.connect();
    const tools = await client.listTools();
    const r = await client.callTool('echo', { text: path });
    const p: number[] = [];
    const slow = await client.callTool('slow', { steps: 2, intervalMs: 10 }, { onProgress: (x) => p.push(x.progress) });
    let el = '';
    try {
      el = (await client.callTool('elicit', {}, { timeout: 1500 })).text;
    } catch (e) {
      el = String(e);
    }
    console.log(
      path,
      client.protocolVersion,
      tools.length,
      r.text,
      slow.text,
      p,
      el,
      (client as any).session?.sessionId,
      errors.map(String),
      seen,
    );
    await client.close();
  }
  server.closeAllConnections();
  await modes.close();
  server.close();
});

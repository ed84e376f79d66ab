import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE, useClients, useHttpServers } from './harness.js';
import { type SsePrefixProxy, startSsePrefixProxy } from './watched-servers.js';

const servers = useHttpServers();
const open = useClients();

describe('POST requests', () => {
  it('sends Content-Type application/json and Accepts both application/json and text/event-stream', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    await client.callTool('echo', { text: 'hi' });
    await client.close();

    const posts = (await scenario.stats()).requests.filter((request) => request.httpMethod === 'POST');
    const methods = posts.map((request) => request.method).filter((method) => method !== PROBE);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    for (const post of posts) {
      expect(post.headers['content-type']).toBe('application/json');
      const accepted = (post.headers.accept ?? '').split(',').map((type) => type.trim());
      expect(accepted).toEqual(expect.arrayContaining(['application/json', 'text/event-stream']));
    }
  });
});

describe('POST answers', () => {
  it('reads a call answered with application/json (/stateless)', async () => {
    const { client, calls } = await open(`${servers.modes}/stateless`);
    const result = await client.callTool('echo', { text: 'json' });
    expect(result.text).toBe('json');
    const call = calls.find((entry) => entry.rpcMethod === 'tools/call');
    expect(call?.contentType).toMatch(/^application\/json/);
  });

  it('reads a call answered with an SSE stream (/stateful)', async () => {
    const { client, calls } = await open(`${servers.modes}/stateful`);
    const result = await client.callTool('echo', { text: 'sse' });
    expect(result.text).toBe('sse');
    const call = calls.find((entry) => entry.rpcMethod === 'tools/call');
    expect(call?.contentType).toMatch(/^text\/event-stream/);
  });

  it('accepts 202 with no body for a notification', async () => {
    const { client, calls } = await open(`${servers.modes}/stateful`);
    const initialized = calls.find((entry) => entry.rpcMethod === 'notifications/initialized');
    expect(initialized?.status).toBe(202);
    await expect(client.ping()).resolves.toBeUndefined();
  });
});

describe('SSE answers', () => {
  let proxy: SsePrefixProxy;
  const prefix = [
    ': a comment, which the client skips\n\n',
    'event: vendor-extension\ndata: {"jsonrpc":"2.0","method":"notifications/vendor"}\n\n',
    'id: priming-1\nretry: 100\ndata:\n\n',
  ].join('');
  beforeAll(async () => {
    proxy = await startSsePrefixProxy(`${servers.modes}/stateful`, prefix);
  });
  afterAll(() => proxy.close());

  it('tolerates comments, empty priming events and unknown event types ahead of the answer', async () => {
    const { client, errors, notifications } = await open(proxy.url, { transport: { standaloneStream: false } });
    const result = await client.callTool('echo', { text: 'through the noise' });
    expect(result.text).toBe('through the noise');
    expect(notifications.map((n) => n.method)).not.toContain('notifications/vendor');
    expect(errors).toEqual([]);
  });

  it('lets other calls proceed while a stream is held open after its answer', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        { match: { method: 'tools/call', tool: 'echo', times: 1 }, action: { type: 'hold-open', commentEveryMs: 20 } },
      ],
    });
    const { client } = await open(scenario.mcp);
    const held = await client.callTool('echo', { text: 'held' }, { timeout: 2000 });
    expect(held.text).toBe('held');
    const [sum, again] = await Promise.all([
      client.callTool('add', { a: 2, b: 3 }, { timeout: 2000 }),
      client.callTool('echo', { text: 'again' }, { timeout: 2000 }),
    ]);
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(again.text).toBe('again');
    expect((await scenario.stats()).rules).toEqual([{ matched: 2, applied: 1 }]);
  });
});

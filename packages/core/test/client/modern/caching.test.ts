import { describe, expect, it } from 'vitest';
import type { Client } from '../../../src/index.js';
import type { FetchCall } from '../../transport/http/counting-fetch.js';
import { textResult, useHostileServer } from './hostile-server.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const hostile = useHostileServer();

const count = (calls: readonly FetchCall[], method: string) => calls.filter((call) => call.rpcMethod === method).length;

/** What the /v2 hub received, per method (the request-counts tool; its own call included). */
async function serverCounts(client: Client): Promise<Record<string, number>> {
  return JSON.parse((await client.callTool('request-counts')).text) as Record<string, number>;
}

describe('TTL result cache (2026-07-28 ttlMs / cacheScope)', () => {
  it('a second listTools() within the TTL sends no request', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'cache'));
    const first = await client.listTools();
    const pages = count(calls, 'tools/list');
    expect(pages).toBe(4);
    expect(await client.listTools()).toEqual(first);
    expect(count(calls, 'tools/list')).toBe(pages);
    expect((await serverCounts(client))['tools/list']).toBe(4);
  });

  it('cache: false asks the server even when a fresh result is cached', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'cache-off'));
    await client.listTools();
    await client.listTools({ cache: false });
    expect(count(calls, 'tools/list')).toBe(8);
    expect((await serverCounts(client))['tools/list']).toBe(8);
  });

  it('a tools/list_changed notification drops the cached list: the next listTools() asks again and sees the new tool', async () => {
    const { client, calls, notifications } = await open(hubUrl(servers.modes, 'cache-invalidate'));
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const before = await client.listTools();
    await client.callTool('add-tool');
    const events = subscription[Symbol.asyncIterator]();
    expect((await events.next()).value?.method).toBe('notifications/tools/list_changed');
    expect(notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');
    const after = await client.listTools();
    // 4 pages before; the new list of 21 tools takes 5 pages of 5.
    expect(count(calls, 'tools/list')).toBe(4 + 5);
    expect(after.map((tool) => tool.name)).toEqual([...before.map((tool) => tool.name), 'dynamic-1']);
  });

  it('a private resources/read is served again only to the same token: after the token changes, the next read asks the server', async () => {
    let token = 'token-of-alice';
    const { client, calls } = await open(hubUrl(servers.modes, 'cache-private'), {
      transport: { tokenProvider: () => token },
    });
    const reads = () => calls.filter((call) => call.rpcMethod === 'resources/read');
    await client.readResource('test://static/text/1');
    await client.readResource('test://static/text/1');
    expect(reads()).toHaveLength(1); // private, ttlMs 60000: reused for the same token

    token = 'token-of-bob';
    expect((await client.readResource('test://static/text/1')).contents[0]?.text).toBe('Resource 1');
    expect(reads()).toHaveLength(2);
    expect(reads()[1]?.headers.get('authorization')).toBe('Bearer token-of-bob');
  });

  it('a private entry is not served to another token once that token has been used', async () => {
    let token = 'token-of-alice';
    const { client, calls } = await open(hubUrl(servers.modes, 'cache-private-used'), {
      transport: { tokenProvider: () => token },
    });
    await client.readResource('test://static/text/2');
    token = 'token-of-bob';
    await client.callTool('echo', { text: 'bob is here' });
    await client.readResource('test://static/text/2');
    const reads = calls.filter((call) => call.rpcMethod === 'resources/read');
    expect(reads.map((call) => call.headers.get('authorization'))).toEqual([
      'Bearer token-of-alice',
      'Bearer token-of-bob',
    ]);
  });

  it('legacy results carry no ttlMs and are never cached', async () => {
    const { client, calls } = await open(`${servers.modes}/stateful`);
    expect(client.era).toBe('legacy');
    await client.listTools();
    await client.listTools();
    await client.readResource('test://static/text/1');
    await client.readResource('test://static/text/1');
    expect(count(calls, 'tools/list')).toBe(6);
    expect(count(calls, 'resources/read')).toBe(2);
  });
});

describe('TTL result cache bounds (limits.maxCacheEntries)', () => {
  it('keeps at most maxCacheEntries results, dropping the least recently used first', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'cache-lru'), {
      client: { limits: { maxCacheEntries: 2 } },
    });
    const read = (n: number) => client.readResource(`test://static/text/${n}`);
    const reads = () => count(calls, 'resources/read');
    await read(1);
    await read(2);
    await read(1); // a hit: 1 is now the most recently used
    expect(reads()).toBe(2);
    await read(3); // a third entry: 2, the least recently used, goes
    await read(1);
    expect(reads()).toBe(3);
    await read(2);
    expect(reads()).toBe(4);
  });

  it('the default keeps 256 results: a list of 256 cached pages is served again from the cache, one of 257 is not', async () => {
    const pagesOf = (total: number) => (cursor: string | undefined) => {
      const n = cursor === undefined ? 0 : Number(cursor);
      return {
        tools: [{ name: `tool-${n}`, inputSchema: { type: 'object' } }],
        ttlMs: 60_000,
        cacheScope: 'public',
        ...(n + 1 < total && { nextCursor: String(n + 1) }),
      };
    };
    const { client } = await open(hostile.url);
    hostile.script({ tools: pagesOf(256), call: () => textResult('ok') });
    expect(await client.listTools()).toHaveLength(256);
    expect(await client.listTools()).toHaveLength(256);
    expect(hostile.listed).toBe(256);

    const other = await open(hostile.url);
    hostile.script({ tools: pagesOf(257), call: () => textResult('ok') });
    await other.client.listTools();
    await other.client.listTools();
    // Read in order, each page evicts the oldest: the second listing finds none of them.
    expect(hostile.listed).toBe(2 * 257);
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { FetchCall } from '../../transport/http/counting-fetch.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

// A file of its own: once the cache's module has loaded, every later import gets it from the module cache,
// so its loads can only be failed before anything loads it.

const servers = useHttpServers();
const open = useClients();

const lists = (calls: readonly FetchCall[]) => calls.filter((call) => call.rpcMethod === 'tools/list').length;

describe('the TTL result cache, loaded on demand', () => {
  it('a result whose cache cannot load is returned all the same and kept nowhere; the next fresh result loads the cache', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'cache-load'));
    const path = '../../../src/client/result-cache.js';
    vi.doMock(path, () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const first = await client.listTools();
    expect(first.length).toBeGreaterThan(0);
    expect(lists(calls)).toBe(4);
    // Nothing was kept: the same list is asked for again, page by page.
    expect(await client.listTools()).toEqual(first);
    expect(lists(calls)).toBe(8);
    vi.doUnmock(path);
    await client.listTools();
    expect(lists(calls)).toBe(12);
    // Now kept: within the TTL no request goes out.
    expect(await client.listTools()).toEqual(first);
    expect(lists(calls)).toBe(12);
  });
});

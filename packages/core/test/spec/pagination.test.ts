import { describe, expect, it } from 'vitest';
import { RpcError } from '../../src/index.js';
import { connected, scripted, useScriptedClients } from '../client/harness.js';
import { discover } from './modern-scripted.js';

/**
 * Checklist §7.7 (pagination) and §7.8 (caching): a cursor the server refuses
 * with -32602 (pagination § Error Handling) starts the listing over from the
 * first page once, dropping what the 2026-07-28 cache holds of that list.
 */
useScriptedClients();

const INVALID_PARAMS = -32602;
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

describe('spec: pagination', () => {
  it('starts the listing over from the first page when the server refuses a cursor with -32602', async () => {
    const { client, server } = await connected();
    const listing = client.listTools();
    const first = await server.expect('tools/list');
    await server.reply(first.id, { tools: [tool('a'), tool('b')], nextCursor: 'page-2' });
    const second = await server.expect('tools/list');
    expect(second.params).toEqual({ cursor: 'page-2' });
    await server.replyError(second.id, INVALID_PARAMS, 'Invalid cursor');
    const again = await server.expect('tools/list');
    expect(again.params?.cursor).toBeUndefined();
    await server.reply(again.id, { tools: [tool('a'), tool('c')], nextCursor: 'fresh-2' });
    const last = await server.expect('tools/list');
    expect(last.params).toEqual({ cursor: 'fresh-2' });
    await server.reply(last.id, { tools: [tool('d')] });
    // Only the restarted listing: nothing of the abandoned one is kept.
    expect(names(await listing)).toEqual(['a', 'c', 'd']);
  });

  it('starts over only once: a second refused cursor fails the listing with that RpcError', async () => {
    const { client, server } = await connected();
    const listing = client.listPrompts();
    for (let round = 0; round < 2; round++) {
      const first = await server.expect('prompts/list');
      expect(first.params?.cursor).toBeUndefined();
      await server.reply(first.id, { prompts: [{ name: 'p' }], nextCursor: 'stale' });
      const next = await server.expect('prompts/list');
      await server.replyError(next.id, INVALID_PARAMS, 'Invalid cursor');
    }
    const error = await listing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: INVALID_PARAMS, method: 'prompts/list' });
    await server.assertNoMessage(20);
  });

  it('does not start over when the first page itself is refused with -32602', async () => {
    const { client, server } = await connected();
    const listing = client.listResources();
    const first = await server.expect('resources/list');
    await server.replyError(first.id, INVALID_PARAMS, 'Invalid params');
    expect(await listing.catch((e: unknown) => e)).toMatchObject({ code: INVALID_PARAMS });
    await server.assertNoMessage(20);
  });

  it('drops the cached pages of a list whose cursor the server refuses, and fetches its first page again', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const page = (tools: unknown[], ttlMs: number, nextCursor?: string) => ({
      resultType: 'complete',
      tools,
      ttlMs,
      cacheScope: 'public',
      ...(nextCursor !== undefined && { nextCursor }),
    });
    // The first page is cached for a minute, the second not at all.
    const listing = client.listTools();
    const first = await server.expect('tools/list');
    await server.reply(first.id, page([tool('a')], 60_000, 'old-2'));
    const second = await server.expect('tools/list');
    await server.reply(second.id, page([tool('b')], 0));
    expect(names(await listing)).toEqual(['a', 'b']);

    // The cached first page still names old-2, which the server has since forgotten.
    const relisting = client.listTools();
    const stale = await server.expect('tools/list');
    expect(stale.params?.cursor).toBe('old-2');
    await server.replyError(stale.id, INVALID_PARAMS, 'Invalid cursor');
    const restart = await server.expect('tools/list');
    expect(restart.params?.cursor).toBeUndefined();
    await server.reply(restart.id, page([tool('a'), tool('c')], 0, 'new-2'));
    const next = await server.expect('tools/list');
    expect(next.params?.cursor).toBe('new-2');
    await server.reply(next.id, page([tool('d')], 0));
    expect(names(await relisting)).toEqual(['a', 'c', 'd']);

    // The stale first page is gone from the cache: the next listing asks the server from the start.
    const third = client.listTools();
    const fresh = await server.expect('tools/list');
    expect(fresh.params?.cursor).toBeUndefined();
    await server.reply(fresh.id, page([tool('a')], 0));
    expect(names(await third)).toEqual(['a']);
  });
});

import { describe, expect, it } from 'vitest';
import { collectPages, page } from '../../src/client/pagination.js';
import { type Client, LimitError } from '../../src/index.js';
import { connected, useScriptedClients } from './harness.js';

useScriptedClients();

/** Each list method, the key its pages hold items under, and a valid item for the n-th entry. */
const LISTS: ReadonlyArray<{
  method: string;
  key: string;
  list: (client: Client) => Promise<unknown[]>;
  item: (n: number) => Record<string, unknown>;
}> = [
  {
    method: 'tools/list',
    key: 'tools',
    list: (c) => c.listTools(),
    item: (n) => ({ name: `tool-${n}`, inputSchema: { type: 'object' } }),
  },
  {
    method: 'resources/list',
    key: 'resources',
    list: (c) => c.listResources(),
    item: (n) => ({ uri: `file:///r${n}`, name: `r${n}` }),
  },
  {
    method: 'resources/templates/list',
    key: 'resourceTemplates',
    list: (c) => c.listResourceTemplates(),
    item: (n) => ({ uriTemplate: `file:///t${n}/{x}`, name: `t${n}` }),
  },
  {
    method: 'prompts/list',
    key: 'prompts',
    list: (c) => c.listPrompts(),
    item: (n) => ({ name: `prompt-${n}` }),
  },
];

describe('pagination', () => {
  it.each(LISTS)('follows nextCursor across pages for $method', async ({ method, key, list, item }) => {
    const { client, server } = await connected();
    const listing = list(client);
    const first = await server.expect(method);
    expect(first.params?.cursor).toBeUndefined();
    await server.reply(first.id, { [key]: [item(1), item(2)], nextCursor: 'page-2' });
    const second = await server.expect(method);
    expect(second.params).toEqual({ cursor: 'page-2' });
    await server.reply(second.id, { [key]: [item(3)], nextCursor: 'page-3' });
    const third = await server.expect(method);
    expect(third.params).toEqual({ cursor: 'page-3' });
    await server.reply(third.id, { [key]: [] });
    expect(await listing).toEqual([item(1), item(2), item(3)]);
  });

  it('follows an empty-string cursor, sending it as cursor ""', async () => {
    const { client, server } = await connected();
    const listing = client.listTools();
    const first = await server.expect('tools/list');
    await server.reply(first.id, { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: '' });
    const second = await server.expect('tools/list');
    expect(second.params).toEqual({ cursor: '' });
    await server.reply(second.id, { tools: [{ name: 'b', inputSchema: { type: 'object' } }] });
    expect((await listing).map((tool) => tool.name)).toEqual(['a', 'b']);
  });

  it('fails with a clear error naming limits.maxPages when the server keeps paging', async () => {
    const { client, server } = await connected({ limits: { maxPages: 2 } });
    const listing = client.listPrompts();
    for (const cursor of ['again', 'again']) {
      const request = await server.expect('prompts/list');
      await server.reply(request.id, { prompts: [{ name: 'loop' }], nextCursor: cursor });
    }
    const error = await listing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxPages', value: 2 });
    expect((error as Error).message).toMatch(/prompts\/list.*more than 2 pages.*limits\.maxPages/);
    await server.assertNoMessage(20);
  });
});

describe('collectPages', () => {
  it('gathers a page of 300,000 items when an app raises maxListItems past the default', async () => {
    // Spreading that many items into one push() call is a RangeError (too many arguments).
    const items = Array.from({ length: 300_000 }, (_, index) => index);
    const all = await collectPages('tools/list', { maxListItems: 1_000_000 }, async () => page(items, undefined));
    expect(all).toHaveLength(300_000);
    expect(all.at(-1)).toBe(299_999);
  });
});

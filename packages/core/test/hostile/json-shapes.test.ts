import { describe, expect, it } from 'vitest';
import { DEEP_SCHEMA_LEVELS, ITEMS_PER_PAGE, PAGE_DESCRIPTION_CHARS } from '../../../../test-servers/hostile/serve.mjs';
import { LimitError, McpError } from '../../src/index.js';
import { expectHealthy, MiB, rejection, timed } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// JSON shapes: values and schemas deep or wide enough to hurt a recursive
// walk, keys that name Object.prototype, and pagination that never ends.

const server = useHostileServer();
const open = useHostileClients(server);

/** What a copy or merge through `__proto__` would have leaked onto the object. */
function expectUnpolluted(value: object, where: string): void {
  const proto = Object.getPrototypeOf(value);
  expect(proto === Object.prototype || proto === null, `${where} has a foreign prototype`).toBe(true);
  expect((value as Record<string, unknown>).polluted, where).toBeUndefined();
}

describe.each(['legacy', 'modern'] as const)('json shapes (%s era)', (era) => {
  it('a result nested 100,000 arrays deep settles (no stack overflow) within 5 s and the next call works', async () => {
    const { client } = await open('deep-json', { era });
    const { ms } = await timed(async () => {
      try {
        const result = await client.callTool('hostile');
        expect(result.text).toBe('deep');
      } catch (error) {
        // Refusing the depth is fine, with a typed error; a RangeError from a recursive walk is not.
        expect(error).toBeInstanceOf(McpError);
      }
    });
    expect(ms).toBeLessThan(5000);
    await expectHealthy(client);
  });

  it('a result of 100,000 content parts is read in under 5 s', async () => {
    const { client } = await open('wide-json', { era, transport: { maxMessageBytes: 8 * MiB } });
    const { value: result, ms } = await timed(() => client.callTool('hostile'));
    expect(result.content).toHaveLength(100_000);
    expect(ms).toBeLessThan(5000);
    await expectHealthy(client);
  });

  it('__proto__, constructor and prototype keys in a result pollute nothing and do not turn it into an error', async () => {
    const { client } = await open('proto-keys', { era });
    const result = await client.callTool('hostile');
    expect(result.isError).not.toBe(true);
    expect(result.text).toBe('proto');
    expectUnpolluted(result, 'the result');
    expectUnpolluted(result.content[0] as object, 'a content part');
    const structured = result.structuredContent as Record<string, unknown>;
    expectUnpolluted(structured, 'structuredContent');
    expect(structured.kept).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString.call({})).toBe('[object Object]');
    await expectHealthy(client);
  });

  it('__proto__ keys in a tool definition pollute nothing; the tool is listed or dropped, never merged into others', async () => {
    const { client } = await open('proto-keys', { era });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'hostile']));
    for (const tool of tools) {
      expectUnpolluted(tool, `tool ${tool.name}`);
      expectUnpolluted(tool.inputSchema, `the input schema of ${tool.name}`);
      if (tool.annotations) expectUnpolluted(tool.annotations, `the annotations of ${tool.name}`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectHealthy(client);
  });

  it('tools/list that always names a next page fails with LimitError at limits.maxPages (20 here)', async () => {
    const { client, endpoint } = await open('endless-pages', { era, client: { limits: { maxPages: 20 } } });
    const error = await rejection(client.listTools());
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxPages', value: 20 });
    expect(endpoint.stats.requests.filter((request) => request.rpcMethod === 'tools/list')).toHaveLength(20);
    await expectHealthy(client);
  });

  it('tools/list pages that together hold more than 10,000 tools fail with LimitError at limits.maxListItems (its default)', async () => {
    const { client, endpoint } = await open('many-items', { era });
    const error = await rejection(client.listTools());
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxListItems', value: 10_000 });
    // The page that passes the bound is the last one asked for.
    const pages = endpoint.stats.requests.filter((request) => request.rpcMethod === 'tools/list');
    expect(pages).toHaveLength(10_000 / ITEMS_PER_PAGE + 1);
    await expectHealthy(client);
  });

  it('tools/list pages of 512 KiB each fail with LimitError at limits.maxListBytes (16 MiB, its default) on the 32nd page', async () => {
    const { client, endpoint } = await open('heavy-pages', { era });
    const error = await rejection(client.listTools());
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxListBytes', value: 16 * MiB });
    // Each page is a little over 512 KiB, so the 32nd passes 16 MiB, far short of limits.maxPages (1000).
    const pages = endpoint.stats.requests.filter((request) => request.rpcMethod === 'tools/list');
    expect(pages).toHaveLength((16 * MiB) / PAGE_DESCRIPTION_CHARS);
    await expectHealthy(client);
  });

  it('tools/list pages of 512 KiB under limits.maxListBytes of 3 MiB fail with LimitError on the 6th page; the next call works', async () => {
    const { client, endpoint } = await open('heavy-pages', { era, client: { limits: { maxListBytes: 3 * MiB } } });
    const error = await rejection(client.listTools());
    expect(error).toMatchObject({ name: 'LimitError', limit: 'limits.maxListBytes', value: 3 * MiB });
    const pages = endpoint.stats.requests.filter((request) => request.rpcMethod === 'tools/list');
    expect(pages).toHaveLength((3 * MiB) / PAGE_DESCRIPTION_CHARS);
    await expectHealthy(client);
    expect(await rejection(client.listTools())).toMatchObject({ limit: 'limits.maxListBytes' });
  });
});

describe('schemas (2026-07-28, where x-mcp-header is read)', () => {
  it(`a tool schema of ${DEEP_SCHEMA_LEVELS} nested \`not\` blocks does not stall listTools() (< 2 s); the other tools are listed`, async () => {
    const { client } = await open('deep-schema', { era: 'modern' });
    const { value: tools, ms } = await timed(() => client.listTools());
    expect(ms).toBeLessThan(2000);
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'hostile']));
    await expectHealthy(client);
  });

  it('a tool schema with 100,000 properties is dropped with onWarning (limits.maxSchemaNodes) in under 3 s; the others are listed', async () => {
    const { client, warnings } = await open('wide-schema', {
      era: 'modern',
      transport: { maxMessageBytes: 16 * MiB },
    });
    const { value: tools, ms } = await timed(() => client.listTools());
    expect(ms).toBeLessThan(3000);
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'hostile']);
    expect(warnings.some((warning) => warning.includes('wide-schema'))).toBe(true);
    await expectHealthy(client);
  });
});

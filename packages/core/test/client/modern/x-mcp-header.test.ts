import { describe, expect, it } from 'vitest';
import { headerAnnotations } from '../../../src/client/x-mcp-header/index.js';
import type { Tool } from '../../../src/index.js';
import { plainTool, textResult, useHostileServer } from './hostile-server.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();

const BAD_TOOLS = ['bad-header-number', 'bad-header-dup', 'bad-header-nested', 'bad-header-token'];

interface Echo {
  headers: Record<string, string>;
  decoded: Record<string, string | null>;
  arguments: Record<string, unknown>;
}

const paramHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('mcp-param-')));

describe('x-mcp-header (2026-07-28 over HTTP)', () => {
  it('mirrors annotated arguments into Mcp-Param-Region/Count/Dry-Run, base64 for non-ASCII', async () => {
    const { client } = await open(hubUrl(servers.modes, 'headers'));
    await client.listTools();
    const result = await client.callTool('header-echo', {
      region: 'Zürich',
      count: 42,
      dryRun: true,
      note: 'no header',
    });
    expect(result.isError).toBe(false);
    const echo = JSON.parse(result.text) as Echo;
    expect(paramHeaders(echo.headers)).toEqual({
      'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'mcp-param-count': '42',
      'mcp-param-dry-run': 'true',
    });
    expect(echo.decoded).toEqual({
      'mcp-param-region': 'Zürich',
      'mcp-param-count': '42',
      'mcp-param-dry-run': 'true',
    });
    expect(echo.headers['mcp-name']).toBe('header-echo');
  });

  it('sends no Mcp-Param header for an argument that is absent or null', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'headers-absent'));
    await client.listTools();
    const absent = JSON.parse((await client.callTool('header-echo', { region: 'eu-west' })).text) as Echo;
    expect(paramHeaders(absent.headers)).toEqual({ 'mcp-param-region': 'eu-west' });
    // null: no header, so the /v2 header check lets it through (the tool's own schema then refuses null).
    await client.callTool('header-echo', { region: 'eu-west', count: null, dryRun: null });
    const last = calls.at(-1)!;
    expect(last.status).toBe(200);
    expect([...last.headers.keys()].filter((name) => name.startsWith('mcp-param-'))).toEqual(['mcp-param-region']);
  });

  it('drops the four tools with invalid x-mcp-header annotations, with an onWarning naming each tool and why', async () => {
    const warnings: string[] = [];
    const { client } = await open(hubUrl(servers.modes, 'headers-bad'), {
      client: { onWarning: (message) => warnings.push(message) },
    });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toContain('header-echo');
    for (const bad of BAD_TOOLS) expect(names).not.toContain(bad);
    expect(warnings).toHaveLength(4);
    const about = (tool: string) => warnings.find((warning) => warning.includes(`"${tool}"`)) ?? '';
    expect(about('bad-header-number')).toMatch(/"Amount".*type "number"/);
    expect(about('bad-header-dup')).toMatch(/more than once/);
    expect(about('bad-header-nested')).toMatch(/not reached through properties/);
    expect(about('bad-header-token')).toMatch(/not an HTTP token/);
  });

  it('a tools/call before listTools is refused with -32020; the client re-lists the tools and retries once', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'headers-relist'));
    const result = await client.callTool('header-echo', { region: 'eu-west', count: 7 });
    expect(result.isError).toBe(false);
    expect(paramHeaders((JSON.parse(result.text) as Echo).headers)).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-count': '7',
    });
    const sent = calls.slice(1).map((call) => `${call.rpcMethod} ${call.status}`);
    expect(sent[0]).toBe('tools/call 400');
    expect(sent.at(-1)).toBe('tools/call 200');
    expect(sent.slice(1, -1).every((entry) => entry === 'tools/list 200')).toBe(true);
    expect(sent.filter((entry) => entry.startsWith('tools/call'))).toHaveLength(2);
    const [first, retry] = calls.filter((call) => call.rpcMethod === 'tools/call');
    expect(retry!.message?.id).not.toBe(first!.message?.id);
  });
});

const hostile = useHostileServer();

/** An object schema with one annotated property and `keyword` nested `depth` times below the root. */
function nestedSchema(keyword: string, depth: number): Record<string, unknown> {
  let inner: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) inner = { [keyword]: inner };
  return { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, [keyword]: inner };
}

describe('x-mcp-header: schemas built to be slow to walk (hostile server)', () => {
  it.each(['not', 'if', 'items', 'additionalProperties'])(
    'a tool whose schema nests %s 50 deep is listed in well under a second, its header still sent',
    async (keyword) => {
      hostile.script({ tools: [plainTool('deep', nestedSchema(keyword, 50))], call: () => textResult('ok') });
      const { client, calls } = await open(hostile.url);
      const started = performance.now();
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(names).toEqual(['deep']);
      await client.callTool('deep', { region: 'eu-west' });
      expect(calls.at(-1)?.headers.get('mcp-param-region')).toBe('eu-west');
    },
    10_000,
  );

  it('a schema past limits.maxSchemaNodes drops that tool with onWarning; the others are listed', async () => {
    const warnings: string[] = [];
    hostile.script({
      tools: [plainTool('before'), plainTool('deep', nestedSchema('not', 200)), plainTool('after')],
      call: () => textResult('ok'),
    });
    const { client } = await open(hostile.url, {
      client: { limits: { maxSchemaNodes: 100 }, onWarning: (message) => warnings.push(message) },
    });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['before', 'after']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"deep".*more than 100 subschemas.*maxSchemaNodes/);
  });

  it('the default budget (10000) drops a schema of 10,001 anyOf branches, and keeps one of 9,000', async () => {
    const wide = (branches: number) => ({
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      anyOf: Array.from({ length: branches }, () => ({ type: 'object' })),
    });
    const warnings: string[] = [];
    hostile.script({
      tools: [plainTool('wide', wide(10_001)), plainTool('fits', wide(9000))],
      call: () => textResult('ok'),
    });
    const { client } = await open(hostile.url, { client: { onWarning: (message) => warnings.push(message) } });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['fits']);
    expect(warnings).toEqual([expect.stringMatching(/"wide".*more than 10000 subschemas/)]);
  });

  it('a schema nested deeper than JSON.stringify can go (100,000 not) is dropped, not a RangeError', async () => {
    const depth = 100_000;
    const deep = `{"type":"object","not":${'{"not":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
    const warnings: string[] = [];
    hostile.script({
      tools: `[{"name":"ok","inputSchema":{"type":"object"}},{"name":"abyss","inputSchema":${deep}}]`,
      call: () => textResult('ok'),
    });
    const { client } = await open(hostile.url, { client: { onWarning: (message) => warnings.push(message) } });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['ok']);
    expect(warnings).toEqual([expect.stringMatching(/"abyss".*maxSchemaNodes/)]);
    expect((await client.callTool('ok')).text).toBe('ok');
  });
});

describe('the x-mcp-header walk (limits.maxSchemaNodes)', () => {
  // Each property of one node is read through a getter that counts: the walk
  // used to list every entry of a node before it checked the budget.
  const countedNode = (size: number) => {
    const read = { count: 0 };
    const node: Record<string, unknown> = {};
    for (let n = 0; n < size; n++) {
      Object.defineProperty(node, `p${n}`, {
        enumerable: true,
        get: () => {
          read.count++;
          return { type: 'string' };
        },
      });
    }
    return { node, read };
  };
  const tool = (inputSchema: Record<string, unknown>) => ({ name: 'huge', inputSchema }) as Tool;

  it('refuses a node of 200,000 properties at the first past the budget (100), without reading the rest', () => {
    const { node, read } = countedNode(200_000);
    const result = headerAnnotations(tool({ type: 'object', properties: node }), 100);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/more than 100 subschemas.*maxSchemaNodes/) });
    expect(read.count).toBe(100);
  });

  it('the same early stop for a map of named schemas ($defs of 200,000)', () => {
    const { node, read } = countedNode(200_000);
    const result = headerAnnotations(tool({ type: 'object', $defs: node }), 100);
    expect(result).toMatchObject({ ok: false });
    expect(read.count).toBe(100);
  });

  it('a node of exactly the budget (99 properties and the root: 100) is walked and accepted', () => {
    const { node, read } = countedNode(99);
    expect(headerAnnotations(tool({ type: 'object', properties: node }), 100)).toEqual({ ok: true, params: [] });
    expect(read.count).toBeGreaterThanOrEqual(99);
  });
});

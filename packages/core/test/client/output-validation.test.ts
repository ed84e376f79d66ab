import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { describe, expect, it, vi } from 'vitest';
import { compileOutputSchema, MAX_SCHEMA_DEPTH } from '../../src/client/output-validation/compile.js';
import { nestsQuantifiers } from '../../src/client/output-validation/nested-quantifiers.js';
import {
  Client,
  type ClientOptions,
  LimitError,
  OutputValidationError,
  ProtocolError,
  StreamableHttpTransport,
  type Tool,
} from '../../src/index.js';
import { useClientGuards, useHttpServers } from '../transport/http/harness.js';
import { connected, type Scripted, useScriptedClients } from './harness.js';

// The reference servers' `structured` profile (test-servers/reference/tools-structured.mjs): each tool lists an
// outputSchema and returns its `structured` argument as structuredContent, so every outcome can be asked for.

const servers = useHttpServers();
const open = useClientGuards();
const stdioScript = fileURLToPath(new URL('../../../../test-servers/stdio.mjs', import.meta.url));

interface Connection {
  readonly name: string;
  readonly era: 'legacy' | 'modern';
  readonly transport: () => ConstructorParameters<typeof Client>[0];
  readonly options?: ClientOptions;
}

const stdio = (sdk: 'v1' | 'v2') => () =>
  new StdioTransport({
    command: process.execPath,
    args: [stdioScript, '--sdk', sdk, '--profile', 'structured'],
    closeTimeout: 500,
  });
const http = (path: string) => () => new StreamableHttpTransport(`${servers.modes}${path}`);

const CONNECTIONS: readonly Connection[] = [
  { name: 'v1 SDK, 2025-11-25, stdio', era: 'legacy', transport: stdio('v1') },
  { name: 'v2 SDK, 2026-07-28, stdio', era: 'modern', transport: stdio('v2') },
  { name: 'v1 SDK, 2025-11-25, Streamable HTTP', era: 'legacy', transport: http('/stateful?profile=structured') },
  { name: 'v2 SDK, 2026-07-28, Streamable HTTP', era: 'modern', transport: http('/v2?profile=structured') },
  {
    name: 'v2 SDK, 2025-11-25, Streamable HTTP',
    era: 'legacy',
    transport: http('/v2?profile=structured'),
    options: { protocolVersion: '2025-11-25' },
  },
];

/** A connected client that has listed the tools; `warnings` holds what it reported to `onWarning`. */
async function listed(connection: Connection, options: ClientOptions = {}) {
  const warnings: string[] = [];
  const client = new Client(connection.transport(), {
    requestTimeout: 5000,
    eraCache: new Map(),
    ...connection.options,
    ...options,
    onWarning: (message) => warnings.push(message),
  });
  open.push(client);
  await client.connect();
  expect(client.era).toBe(connection.era);
  const tools = await client.listTools();
  return { client, tools, warnings };
}

/** What a call rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (result) => expect.unreachable(`resolved with ${JSON.stringify(result)}`),
    (error: unknown) => error,
  );
}

describe.each(CONNECTIONS)('output schema validation: $name', (connection) => {
  it('passes structuredContent that matches the outputSchema, as the server sent it', async () => {
    const { client } = await listed(connection);
    const result = await client.callTool('sum-report', { structured: { sum: 3, note: 'ok' } });
    expect(result.structuredContent).toEqual({ sum: 3, note: 'ok' });
    expect(result.isError).toBe(false);
  });

  it('rejects structuredContent that breaks the outputSchema with an OutputValidationError naming the tool and the first failing path', async () => {
    const { client } = await listed(connection);
    const error = await rejection(client.callTool('sum-report', { structured: { sum: 'three' } }));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toBeInstanceOf(ProtocolError);
    const failure = error as OutputValidationError;
    expect(failure.tool).toBe('sum-report');
    expect(failure.path).toBe('sum');
    expect(failure.message).toContain('"sum-report"');
    expect(failure.data.received).toEqual({ sum: 'three' });
    expect(failure.data.issues.at(-1)).toEqual({ path: 'sum', message: expect.stringContaining('number') });
    // A missing required property fails at the object that should hold it.
    const missing = await rejection(client.callTool('sum-report', { structured: { note: 'no sum' } }));
    expect(missing).toMatchObject({ tool: 'sum-report', path: '' });
  });

  it('rejects a result without structuredContent from a tool that listed an outputSchema', async () => {
    const { client } = await listed(connection);
    const error = await rejection(client.callTool('sum-report', {}));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({ tool: 'sum-report', path: '', message: expect.stringContaining('missing') });
  });

  it('passes an isError result unchecked: the tool failed, its output owes the schema nothing', async () => {
    const { client } = await listed(connection);
    const result = await client.callTool('sum-report', { isError: true });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  it('checks any JSON value against a schema for it (an array of strings)', async () => {
    const { client } = await listed(connection);
    const words = await client.callTool('word-list', { structured: ['a', 'b'] });
    expect(words.structuredContent).toEqual(asSent(connection, ['a', 'b']));
    const error = await rejection(client.callTool('word-list', { structured: ['a', 2] }));
    expect(error).toMatchObject({ tool: 'word-list', path: wrapsValues(connection) ? 'result.1' : '1' });
  });

  it('validates a draft-07 schema with a local $ref', async () => {
    const { client } = await listed(connection);
    expect((await client.callTool('draft7-ref', { structured: { total: 2 } })).structuredContent).toEqual({ total: 2 });
    const error = await rejection(client.callTool('draft7-ref', { structured: { total: -1 } }));
    expect(error).toMatchObject({ tool: 'draft7-ref', path: 'total' });
  });

  it('with validateOutput: false, hands over whatever came', async () => {
    const { client } = await listed(connection);
    const options = { validateOutput: false };
    const wrong = await client.callTool('sum-report', { structured: { sum: 'three' } }, options);
    expect(wrong.structuredContent).toEqual({ sum: 'three' });
    expect((await client.callTool('sum-report', {}, options)).structuredContent).toBeUndefined();
  });

  it('keeps a tool whose outputSchema it cannot use, warns once naming it and why, and passes its results unchecked', async () => {
    const { client, tools, warnings } = await listed(connection);
    const unusable = {
      'bad-schema': '#/properties/sum/type',
      'remote-ref': 'unresolved $ref "https://schemas.example.com/report.json" (never fetched)',
      'odd-dialect': 'dialect not supported: "https://example.com/my-dialect"',
      'deep-schema': 'nested deeper than 128 levels',
    };
    for (const [name, reason] of Object.entries(unusable)) {
      expect(tools.map((tool) => tool.name)).toContain(name);
      for (const structured of [{ anything: 1 }, 'not even an object']) {
        const result = await client.callTool(name, { structured });
        expect(JSON.parse(result.text)).toEqual(structured);
        // The v2 server wraps it as {result} for 2025 clients when the schema's root is not an object (remote-ref).
        if (!wrapsValues(connection)) expect(result.structuredContent).toEqual(structured);
      }
      // As if it had listed none: a result without structuredContent passes too.
      expect((await client.callTool(name, {})).structuredContent).toBeUndefined();
      expect(warnings.filter((warning) => warning.includes(`"${name}"`))).toEqual([expect.stringContaining(reason)]);
    }
    expect(warnings).toHaveLength(Object.keys(unusable).length);
  });
});

describe('output schema validation: what it checks and when', () => {
  const connection = CONNECTIONS[0]!;

  it('does not check a tool this client never listed', async () => {
    const client = new Client(connection.transport(), { eraCache: new Map() });
    open.push(client);
    await client.connect();
    const result = await client.callTool('sum-report', { structured: { sum: 'three' } });
    expect(result.structuredContent).toEqual({ sum: 'three' });
  });

  it('limits.maxSchemaNodes: a schema at the bound is used, one past it is not (onWarning), and its results pass unchecked', async () => {
    // sum-report's schema: the root, `properties`, `sum`, `note` and `required` are its objects and arrays.
    const probe = await listed(connection);
    const schema = probe.tools.find((tool) => tool.name === 'sum-report')?.outputSchema;
    expect(containers(schema)).toBe(5);

    const atBound = await listed(connection, { limits: { maxSchemaNodes: 5 } });
    const error = await rejection(atBound.client.callTool('sum-report', { structured: { sum: 'three' } }));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(atBound.warnings).toEqual([]);

    const past = await listed(connection, { limits: { maxSchemaNodes: 4 } });
    const unchecked = await past.client.callTool('sum-report', { structured: { sum: 'three' } });
    expect(unchecked.structuredContent).toEqual({ sum: 'three' });
    expect(past.warnings).toEqual([expect.stringContaining('more than 4 objects and arrays (limits.maxSchemaNodes)')]);
  });

  it("rejects a value nested too deep for the validator with an OutputValidationError, the validator's error as cause", async () => {
    const { client } = await listed(connection);
    expect((await client.callTool('tree', { structured: nested(5) })).structuredContent).toEqual(nested(5));
    const error = await rejection(client.callTool('tree', { structured: nested(2000) }));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({ tool: 'tree', path: '', message: expect.stringContaining('could not be validated') });
    expect((error as Error).cause).toBeInstanceOf(RangeError);
    // The client goes on: the next call is checked as ever.
    expect((await client.callTool('tree', { structured: [[]] })).structuredContent).toEqual([[]]);
  });

  it(`MAX_SCHEMA_DEPTH: a schema nested ${MAX_SCHEMA_DEPTH} levels deep is used, one level more is not`, () => {
    const chain = (levels: number) => {
      let schema: Record<string, unknown> = {};
      for (let level = 1; level < levels; level++) schema = { not: schema };
      return schema;
    };
    expect(compileOutputSchema(chain(MAX_SCHEMA_DEPTH), 10_000)).toHaveProperty('validate');
    expect(compileOutputSchema(chain(MAX_SCHEMA_DEPTH + 1), 10_000)).toEqual({
      reason: `nested deeper than ${MAX_SCHEMA_DEPTH} levels`,
    });
  });

  it('leaves the listed Tool as the server sent it', async () => {
    const { client, tools } = await listed(connection);
    const before = structuredClone(tools);
    await client.callTool('draft7-ref', { structured: { total: 1 } });
    await client.callTool('sum-report', { structured: { sum: 1 } });
    expect(tools).toEqual(before);
    const schema = tools.find((tool) => tool.name === 'draft7-ref')?.outputSchema as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(schema)).toEqual(Object.keys(before.find(named('draft7-ref'))!.outputSchema!));
  });
});

describe('output schema validation: dialects and $ref, on a scripted server', () => {
  // Schemas no reference server lists: the scripted server (test/client/scripted-server.js) lists them as written.
  useScriptedClients();

  /** `{count}` under a `$ref`, capped by a `maximum` beside it: 2020-12 applies the cap, draft-07 ignores it. */
  const capped = (dialect?: string) => ({
    ...(dialect !== undefined && { $schema: dialect }),
    type: 'object',
    properties: { count: { $ref: '#/$defs/count', maximum: 10 } },
    required: ['count'],
    $defs: { count: { type: 'integer' } },
  });

  it('takes a schema without $schema as JSON Schema 2020-12 and a declared draft-07 one as draft-07: a keyword beside $ref applies only in 2020-12', async () => {
    const pair = await listedFrom([
      { name: 'no-dialect', outputSchema: capped() },
      { name: 'draft-2020-12', outputSchema: capped('https://json-schema.org/draft/2020-12/schema') },
      { name: 'draft-07', outputSchema: capped('http://json-schema.org/draft-07/schema#') },
    ]);
    for (const name of ['no-dialect', 'draft-2020-12']) {
      expect(await answered(pair, name, { count: 3 })).toMatchObject({ structuredContent: { count: 3 } });
      const capError = await answered(pair, name, { count: 11 });
      expect(capError).toBeInstanceOf(OutputValidationError);
      expect(capError).toMatchObject({ tool: name, path: 'count' });
    }
    // Draft-07 ignores every keyword beside $ref: the cap does not apply, the $ref target still does.
    expect(await answered(pair, 'draft-07', { count: 11 })).toMatchObject({ structuredContent: { count: 11 } });
    expect(await answered(pair, 'draft-07', { count: 'eleven' })).toMatchObject({ tool: 'draft-07', path: 'count' });
    expect(pair.warnings).toEqual([]);
  });

  it('never fetches a $ref to another document, even one a loopback server would answer: the schema is not used, and onWarning says why', async () => {
    const fetched: string[] = [];
    const schemaHost = createServer((request, response) => {
      fetched.push(request.url ?? '');
      response.setHeader('content-type', 'application/schema+json');
      response.end(JSON.stringify({ type: 'object', required: ['sum'] }));
    });
    await new Promise<void>((resolve) => schemaHost.listen(0, '127.0.0.1', resolve));
    try {
      const ref = `http://127.0.0.1:${(schemaHost.address() as AddressInfo).port}/report.json`;
      // Proof the document is there to be had: a client that fetched it would refuse {other: 1}, which lacks sum.
      expect(await (await fetch(ref)).json()).toEqual({ type: 'object', required: ['sum'] });
      fetched.length = 0;
      // Every fetch the client starts is seen here at once, awaited or not.
      const fetches = vi.spyOn(globalThis, 'fetch');

      const pair = await listedFrom([{ name: 'remote', outputSchema: { $ref: ref } }]);
      expect(await answered(pair, 'remote', { other: 1 })).toMatchObject({ structuredContent: { other: 1 } });
      expect(await answered(pair, 'remote', { other: 2 })).toMatchObject({ structuredContent: { other: 2 } });

      expect(fetches).not.toHaveBeenCalled();
      expect(fetched).toEqual([]);
      expect(pair.warnings).toEqual([expect.stringContaining(`unresolved $ref "${ref}" (never fetched)`)]);
      expect(pair.warnings[0]).toContain('"remote"');
    } finally {
      vi.restoreAllMocks();
      schemaHost.closeAllConnections();
      await new Promise((resolve) => schemaHost.close(resolve));
    }
  });

  it('limits.maxSchemaNodes bounds the expanded size: 24 levels of a two-way allOf of $refs are refused before any validation, onWarning says why, and the call returns unchecked', async () => {
    const schema = fanOut(24, 'allOf');
    // Small in itself, far within the node bound: 1.5 KB, 99 objects and arrays; expanded, 2^26 subschemas.
    expect(JSON.stringify(schema).length).toBeLessThan(1600);
    expect(containers(schema)).toBe(99);
    const pair = await listedFrom([{ name: 'fan-out', outputSchema: schema }]);
    expect(await answered(pair, 'fan-out', 1)).toMatchObject({ structuredContent: 1 });
    expect(await answered(pair, 'fan-out', 'not an integer')).toMatchObject({ structuredContent: 'not an integer' });
    expect(pair.warnings).toEqual([
      expect.stringContaining('expands to more than 10000 subschemas through $ref (limits.maxSchemaNodes)'),
    ]);
    expect(pair.warnings[0]).toContain('"fan-out"');
  });

  it('refuses the same fan-out through anyOf, which would overflow the stack, and a $ref loop that never descends into the value', async () => {
    const pair = await listedFrom([
      { name: 'any-of', outputSchema: fanOut(24, 'anyOf') },
      { name: 'self', outputSchema: { $ref: '#' } },
      { name: 'all-of-self', outputSchema: { type: 'object', allOf: [{ $ref: '#' }] } },
    ]);
    for (const name of ['any-of', 'self', 'all-of-self']) {
      expect(await answered(pair, name, { any: 1 })).toMatchObject({ structuredContent: { any: 1 } });
    }
    expect(pair.warnings).toEqual([
      expect.stringMatching(/"any-of".*expands to more than 10000 subschemas through \$ref \(limits\.maxSchemaNodes\)/),
      expect.stringMatching(/"self".*a \$ref loop applies a subschema to the same value forever/),
      expect.stringMatching(/"all-of-self".*a \$ref loop applies a subschema to the same value forever/),
    ]);
  });

  it('uses a recursive schema (a tree whose children are trees): its $ref back into itself counts once, and valid and invalid trees are told apart', async () => {
    const tree = {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['value'],
          additionalProperties: false,
        },
      },
    };
    const pair = await listedFrom([{ name: 'tree', outputSchema: tree }], { limits: { maxSchemaNodes: 12 } });
    let deep: Record<string, unknown> = { value: 0 };
    for (let level = 1; level <= 100; level++) deep = { value: level, children: [deep, { value: -level }] };
    expect(await answered(pair, 'tree', deep)).toMatchObject({ structuredContent: deep });
    const wrong = { value: 1, children: [{ value: 2, children: [{ value: 'three' }] }] };
    const error = await answered(pair, 'tree', wrong);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({ tool: 'tree', path: 'children.0.children.0.value' });
    expect(await answered(pair, 'tree', { value: 1, children: [{}] })).toMatchObject({ path: 'children.0' });
    expect(pair.warnings).toEqual([]);
  });

  it('limits.maxSchemaNodes: a schema whose expanded size is at the bound is used, one past it is not', async () => {
    // 11 levels: the root, and 2^13 - 3 subschemas under its $ref.
    const schema = fanOut(11, 'allOf');
    const atBound = await listedFrom([{ name: 'fan-out', outputSchema: schema }], { limits: { maxSchemaNodes: 8190 } });
    expect(await answered(atBound, 'fan-out', 1)).toMatchObject({ structuredContent: 1 });
    expect(await answered(atBound, 'fan-out', 'one')).toBeInstanceOf(OutputValidationError);
    expect(atBound.warnings).toEqual([]);

    const past = await listedFrom([{ name: 'fan-out', outputSchema: schema }], { limits: { maxSchemaNodes: 8189 } });
    expect(await answered(past, 'fan-out', 'one')).toMatchObject({ structuredContent: 'one' });
    expect(past.warnings).toEqual([expect.stringContaining('expands to more than 8189 subschemas through $ref')]);
  });

  it('stops a validation whose $refs loop back twice into the same part of the value: OutputValidationError, a LimitError its cause', async () => {
    // Within every bound as a schema (5 subschemas expanded), but each level of nesting doubles the work.
    const twice = { allOf: [{ items: { $ref: '#' } }, { items: { $ref: '#' } }] };
    const pair = await listedFrom([{ name: 'twice', outputSchema: twice }]);
    expect(await answered(pair, 'twice', nested(2))).toMatchObject({ structuredContent: nested(2) });
    const error = await answered(pair, 'twice', nested(40));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({
      tool: 'twice',
      path: '',
      message: expect.stringContaining('could not be validated'),
    });
    expect((error as Error).cause).toBeInstanceOf(LimitError);
    expect((error as Error).cause).toMatchObject({ limit: 'limits.maxValidationSteps', value: 500_000 });
    // The tool ran: its result comes with the error, for the app to decide.
    expect((error as OutputValidationError).result?.structuredContent).toEqual(nested(40));
    expect(pair.warnings).toEqual([]);
  });
});

describe('output schema validation: bounded work (limits.maxValidationSteps), on a scripted server', () => {
  useScriptedClients();

  /** Asserts `outcome` is an OutputValidationError whose cause is the LimitError of `limits.maxValidationSteps` at `value`. */
  function pastSteps(outcome: unknown, value: number) {
    expect(outcome).toBeInstanceOf(OutputValidationError);
    expect((outcome as Error).cause).toBeInstanceOf(LimitError);
    expect((outcome as Error).cause).toMatchObject({ limit: 'limits.maxValidationSteps', value });
    expect((outcome as Error).message).toContain(`more than ${value} steps`);
  }

  it('counts one step per subschema applied to one part of the value: a validation at the bound passes, one past it fails', async () => {
    // The root applied to the array, then `items` to each of its 3 items: 4 steps.
    const schema = { type: 'array', items: { minimum: 0 } };
    const atBound = await listedFrom([{ name: 'list', outputSchema: schema }], { limits: { maxValidationSteps: 4 } });
    expect(await answered(atBound, 'list', [1, 2, 3])).toMatchObject({ structuredContent: [1, 2, 3] });
    expect(await answered(atBound, 'list', [1, -2, 3])).toMatchObject({ path: '1' });
    const past = await listedFrom([{ name: 'list', outputSchema: schema }], { limits: { maxValidationSteps: 3 } });
    pastSteps(await answered(past, 'list', [1, 2, 3]), 3);
    expect(await answered(past, 'list', [1, 2])).toMatchObject({ structuredContent: [1, 2] });
  });

  it('stops an allOf of 4000 subschemas over each item of an array (no $ref), and raising the option lets it through', async () => {
    const schema = { type: 'array', items: { allOf: Array.from({ length: 4000 }, () => ({ minimum: 0 })) } };
    const items = Array.from({ length: 300 }, (_, index) => index);
    const pair = await listedFrom([{ name: 'wide', outputSchema: schema }]);
    expect(await answered(pair, 'wide', items.slice(0, 10))).toMatchObject({ structuredContent: items.slice(0, 10) });
    // 300 items × 4001 subschemas: past the default 500,000.
    pastSteps(await answered(pair, 'wide', items), 500_000);
    expect(pair.warnings).toEqual([]);
    const raised = await listedFrom([{ name: 'wide', outputSchema: schema }], {
      limits: { maxValidationSteps: 1_300_000 },
    });
    expect(await answered(raised, 'wide', items)).toMatchObject({ structuredContent: items });
  });

  it('counts each member of an object each time a subschema lists them: an allOf of 2000 subschemas over an object of 1000 members is stopped, over one of 10 it passes', async () => {
    const schema = { type: 'object', allOf: Array.from({ length: 2000 }, () => ({ minProperties: 0 })) };
    const members = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [`m${index}`, index]));
    const pair = await listedFrom([
      { name: 'wide-object', outputSchema: schema },
      { name: 'proto', outputSchema: { type: 'object', required: ['__proto__'] } },
    ]);
    expect(await answered(pair, 'wide-object', members(10))).toMatchObject({ structuredContent: members(10) });
    pastSteps(await answered(pair, 'wide-object', members(1000)), 500_000);
    // In the copy the validator is given, a member named __proto__ is a member like any other.
    const proto = JSON.parse('{"__proto__": {"x": 1}, "a": 2}');
    expect(await answered(pair, 'proto', proto)).toMatchObject({ structuredContent: proto });
    expect(await answered(pair, 'proto', { a: 2 })).toBeInstanceOf(OutputValidationError);
  });

  it('stops a 2019-09 $recursiveRef that loops back twice into the same part, which follows no $ref the compile step counts', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $recursiveAnchor: true,
      allOf: [{ items: { $recursiveRef: '#' } }, { items: { $recursiveRef: '#' } }],
    };
    const pair = await listedFrom([{ name: 'recursive', outputSchema: schema }]);
    expect(await answered(pair, 'recursive', nested(3))).toMatchObject({ structuredContent: nested(3) });
    pastSteps(await answered(pair, 'recursive', nested(30)), 500_000);
    expect(pair.warnings).toEqual([]);
  });

  it('charges uniqueItems a step per pair of items compared: 20,000 integers and 3,000 objects are stopped before comparing, a short list is checked', async () => {
    const schema = { type: 'array', uniqueItems: true };
    const pair = await listedFrom([{ name: 'unique', outputSchema: schema }]);
    const integers = Array.from({ length: 20_000 }, (_, index) => index);
    pastSteps(await answered(pair, 'unique', integers), 500_000);
    const objects = Array.from({ length: 3000 }, (_, index) => ({ id: index }));
    pastSteps(await answered(pair, 'unique', objects), 500_000);
    const short = integers.slice(0, 500);
    expect(await answered(pair, 'unique', short)).toMatchObject({ structuredContent: short });
    expect(await answered(pair, 'unique', [{ id: 1 }, { id: 1 }])).toBeInstanceOf(OutputValidationError);
  });

  it('does not use a schema whose pattern or patternProperties key repeats a group holding an unbounded quantifier (no regex can be stopped once it runs): onWarning, results unchecked', async () => {
    const pair = await listedFrom([
      { name: 'pattern', outputSchema: { type: 'string', pattern: '^(a+)+$' } },
      { name: 'pattern-properties', outputSchema: { type: 'object', patternProperties: { '^(\\w+\\s?)*$': {} } } },
    ]);
    const evil = `${'a'.repeat(40)}!`;
    expect(await answered(pair, 'pattern', evil)).toMatchObject({ structuredContent: evil });
    expect(await answered(pair, 'pattern-properties', { [evil]: 1 })).toMatchObject({
      structuredContent: { [evil]: 1 },
    });
    expect(pair.warnings).toEqual([
      expect.stringMatching(/"pattern".*pattern "\^\(a\+\)\+\$" repeats a group holding an unbounded quantifier/),
      expect.stringMatching(/"pattern-properties".*repeats a group holding an unbounded quantifier/),
    ]);
  });

  it('uses schemas with ordinary patterns', async () => {
    const ordinary = [
      '^[a-z0-9-]+$',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      '^(\\d{1,3}\\.){3}\\d{1,3}$',
      '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      '^v?(\\d+)\\.(\\d+)\\.(\\d+)(-[\\w.]+)?$',
      '^https?://[^\\s/$.?#].[^\\s]*$',
      '^(?:[+*]|\\p{Lu})\\p{Ll}*$',
    ];
    for (const pattern of ordinary) expect(nestsQuantifiers(pattern), pattern).toBe(false);
    for (const pattern of ['^(a+)+$', '(\\w+\\s?)*', '((ab)*){2,}', '^((a|b)+)*$', '([a-z]+){2,5}'])
      expect(nestsQuantifiers(pattern), pattern).toBe(true);
    const pair = await listedFrom([{ name: 'date', outputSchema: { type: 'string', pattern: ordinary[1] } }]);
    expect(await answered(pair, 'date', '2026-12-01')).toMatchObject({ structuredContent: '2026-12-01' });
    expect(await answered(pair, 'date', 'Dec 1')).toBeInstanceOf(OutputValidationError);
    expect(pair.warnings).toEqual([]);
  });
});

describe('output schema validation: what the validator would get wrong, on a scripted server', () => {
  useScriptedClients();

  it('does not use a 2020-12 schema with $dynamicRef, which the validator would ignore (passing 5 for a string)', async () => {
    const pair = await listedFrom([
      { name: 'dynamic', outputSchema: { $dynamicRef: '#/$defs/text', $defs: { text: { type: 'string' } } } },
    ]);
    expect(await answered(pair, 'dynamic', 5)).toMatchObject({ structuredContent: 5 });
    expect(pair.warnings).toEqual([
      expect.stringMatching(/"dynamic".*\$dynamicRef "#\/\$defs\/text" is not supported/),
    ]);
  });

  it('fails a member name holding a lone surrogate at its path, and passes a surrogate pair', async () => {
    const schema = { type: 'object', additionalProperties: { type: 'number' } };
    const pair = await listedFrom([{ name: 'numbers', outputSchema: schema }]);
    const error = await answered(pair, 'numbers', { ok: 1, '\ud800': 1 });
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({
      tool: 'numbers',
      path: '\ud800',
      message: expect.stringContaining('lone surrogate'),
    });
    expect((error as OutputValidationError).result?.structuredContent).toEqual({ ok: 1, '\ud800': 1 });
    expect(await answered(pair, 'numbers', { '😀': 1 })).toMatchObject({ structuredContent: { '😀': 1 } });
    expect(await answered(pair, 'numbers', { '😀': 'one' })).toMatchObject({ path: '😀' });
  });

  it('cuts a server string to 120 characters in a warning', async () => {
    const dialect = `https://example.com/${'x'.repeat(5000)}`;
    const ref = `https://example.com/${'y'.repeat(5000)}`;
    const pair = await listedFrom([
      { name: 'long-dialect', outputSchema: { $schema: dialect } },
      { name: 'long-ref', outputSchema: { $ref: ref } },
    ]);
    await answered(pair, 'long-dialect', 1);
    await answered(pair, 'long-ref', 1);
    expect(pair.warnings).toHaveLength(2);
    for (const warning of pair.warnings) {
      expect(warning.length).toBeLessThan(300);
      expect(warning).toContain('…');
    }
  });
});

/**
 * A client (with `options`) connected to a scripted 2025-11-25 server that has listed `tools`; `warnings` holds
 * its onWarning reports.
 */
async function listedFrom(tools: readonly Record<string, unknown>[], options: ClientOptions = {}) {
  const warnings: string[] = [];
  const pair = await connected({ ...options, onWarning: (message) => warnings.push(message) });
  const listing = pair.client.listTools();
  await pair.server.answer('tools/list', {
    tools: tools.map((tool) => ({ inputSchema: { type: 'object' }, ...tool })),
  });
  await listing;
  return { ...pair, warnings };
}

/** Calls `name`, the server answering with `structuredContent`: the result, or what the call rejected with. */
async function answered({ client, server }: Scripted, name: string, structuredContent: unknown): Promise<unknown> {
  const calling = client.callTool(name, {});
  const request = await server.expect('tools/call');
  await server.reply(request.id, { content: [], structuredContent });
  return calling.catch((error: unknown) => error);
}

/** The v2 server wraps structured output that is not an object as `{result}` for 2025 clients, schema and value alike. */
const wrapsValues = (connection: Connection) => connection.options?.protocolVersion !== undefined;

/** `value` as `connection`'s server puts it on the wire. */
const asSent = (connection: Connection, value: unknown) =>
  wrapsValues(connection) && (typeof value !== 'object' || Array.isArray(value)) ? { result: value } : value;

const named = (name: string) => (tool: Tool) => tool.name === name;

/**
 * `levels` of a two-way `keyword` (allOf, anyOf) of `$ref`s over `$defs`, down to `{ type: 'integer' }`: each
 * level reaches the one below twice, so a validation would visit the bottom 2^levels times.
 */
function fanOut(levels: number, keyword: 'allOf' | 'anyOf'): Record<string, unknown> {
  const $defs: Record<string, unknown> = { l0: { type: 'integer' } };
  for (let level = 1; level <= levels; level++) {
    const below = { $ref: `#/$defs/l${level - 1}` };
    $defs[`l${level}`] = { [keyword]: [below, { ...below }] };
  }
  return { $ref: `#/$defs/l${levels}`, $defs };
}

/** Arrays nested `depth` deep. */
function nested(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

/** How many objects and arrays a JSON value holds, itself included. */
function containers(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + containers(child), 0);
}

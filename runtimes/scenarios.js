/* @ts-self-types="./scenarios.d.ts" */
/**
 * The end-to-end scenarios every runtime runs (Node, Chromium, workerd, Deno and
 * Bun): first the built output on its own (exports, a MemoryTransport pair, a
 * Client against the scripted server), then against the HTTP test servers
 * (test-servers/README.md). Plain ESM that imports only plain ESM with no
 * imports of its own (its siblings, the unit tests' scripted server and
 * recording handlers, the reference servers' tool list), so a page, a worker
 * and every runtime load this same file. Each scenario is
 * `async (core, urls, assert) => void`: `core` is the runtime's own import of
 * @mcp/core (the bundle or the package), `urls` the servers' base URLs
 * `{ modes, faults }`, and `assert` the helper of assert.js. Each one makes its
 * own Client and closes it.
 */

import { ROOTS, recordingHandlers } from '../packages/core/test/client/modern/recording-handlers.js';
import { ScriptedServer } from '../packages/core/test/client/scripted-server.js';
import { REFERENCE_TOOL_NAMES, toBase64 } from '../test-servers/reference/fixtures.mjs';
import { createFaultScenario, onFirstToolCall, readFaultStats } from './faults.js';

// ---------------------------------------------------------------------------
// The build on its own: it loads, and a Client works over a MemoryTransport
// pair, before any network is involved.

/** Names every program imports: a build that lacks one is broken, whatever else works. */
const PUBLIC_CLASSES = ['Client', 'MemoryTransport', 'StreamableHttpTransport', 'McpError'];

/** The build loads in the runtime and exports the public API. */
export async function publicExports(core, _urls, assert) {
  for (const name of PUBLIC_CLASSES) assert.equal(typeof core[name], 'function', `core.${name}`);
}

/** A MemoryTransport pair carries a message from one end to the other, and closing one end ends the other's stream. */
export async function memoryPair(core, _urls, assert) {
  const [left, right] = core.MemoryTransport.createPair();
  const received = [];
  const reading = (async () => {
    for await (const event of right.messages()) received.push(event.message);
  })();
  await left.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  await left.close();
  await reading;
  assert.deepEqual(received, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], 'what arrived');
}

const ECHO_TOOL = {
  name: 'echo',
  description: 'Returns its text argument.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** A Client connects to the scripted server, lists its tools, calls one and closes, sending nothing unplanned. */
export async function scriptedServerRoundTrip(core, _urls, assert) {
  const [clientEnd, serverEnd] = core.MemoryTransport.createPair();
  const server = new ScriptedServer(serverEnd);
  const client = new core.Client(clientEnd, { clientInfo: { name: 'runtime-scenarios', version: '1.0.0' } });
  try {
    const serverInfo = { name: 'scripted-server', version: '1.0.0' };
    await Promise.all([client.connect(), server.handshake({ capabilities: { tools: {} }, serverInfo })]);
    assert.equal(client.protocolVersion, '2025-11-25', 'negotiated protocol version');
    assert.equal(client.serverInfo?.name, 'scripted-server', 'server name');
    const [tools] = await Promise.all([client.listTools(), server.answer('tools/list', { tools: [ECHO_TOOL] })]);
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['echo'],
      'tools',
    );
    const answer = { content: [{ type: 'text', text: 'echo: hello' }], isError: false };
    const [result, call] = await Promise.all([
      client.callTool('echo', { text: 'hello' }),
      server.answer('tools/call', answer),
    ]);
    assert.equal(call.params?.name, 'echo', 'the tool called');
    assert.deepEqual(call.params?.arguments, { text: 'hello' }, 'its arguments');
    assert.equal(result.text, 'echo: hello', 'result text');
    assert.equal(result.isError, false, 'isError');
  } finally {
    await client.close();
  }
  await server.expectEnd();
  server.verify();
}

// ---------------------------------------------------------------------------
// Against the HTTP test servers.

/**
 * Connects a fresh Client over Streamable HTTP to `url`, runs `body`, and always
 * closes it. Fresh means an `eraCache` of its own unless the scenario passes one,
 * so no scenario depends on the era verdicts of those that ran before it. Errors
 * the client reports outside any call (`onError`) while in use fail the
 * scenario: none of these scenarios should produce one. Reports made once
 * `close()` has begun are not counted here: a notification still in flight then
 * (e.g. the `notifications/cancelled` of abortCall) is reported as a
 * ClientClosedError, a close-path matter for the client's own tests.
 */
async function withClient(core, url, { client: clientOptions = {}, transport: transportOptions = {} }, body) {
  const stray = [];
  let closing = false;
  const onError = (error) => {
    if (!closing) stray.push(error);
  };
  const transport = new core.StreamableHttpTransport(url, transportOptions);
  const client = new core.Client(transport, { eraCache: new Map(), ...clientOptions, onError });
  try {
    await client.connect();
    await body(client, transport);
  } finally {
    closing = true;
    await client.close();
  }
  if (stray.length > 0) {
    throw new Error(`the client reported errors outside any call: ${stray.map((e) => `${e.name}: ${e.message}`)}`);
  }
}

/** Polls `read` until `accept` holds, for up to `ms`: for server-side effects that land after a call returns. */
async function eventually(read, accept, ms = 2000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Handshake, session id, and `listTools` following the cursor across 3 pages. */
export async function connectAndListTools(core, urls, assert) {
  await withClient(core, `${urls.modes}/stateful`, {}, async (client, transport) => {
    assert.equal(client.protocolVersion, '2025-11-25', 'negotiated protocol version');
    assert.equal(client.serverInfo?.name, 'mcp-reference-server', 'server name');
    assert.ok(typeof transport.sessionId === 'string' && transport.sessionId !== '', 'the server assigned a session');
    const tools = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      REFERENCE_TOOL_NAMES,
      'every tool, in order',
    );
  });
}

/** Every `notifications/progress` of a call reaches its `onProgress`, then the result. */
export async function callWithProgress(core, urls, assert) {
  await withClient(core, `${urls.modes}/stateful`, {}, async (client) => {
    const seen = [];
    const result = await client.callTool('slow', { steps: 4, intervalMs: 10 }, { onProgress: (p) => seen.push(p) });
    assert.equal(result.text, 'done after 4 steps', 'result text');
    assert.deepEqual(
      seen,
      [1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i} of 4` })),
      'progress notifications',
    );
  });
}

/** The server's `elicitation/create`, sent mid-call, is answered by the client's handler. */
export async function serverRequestAnsweredByHandler(core, urls, assert) {
  const asked = [];
  const elicitation = (request) => {
    asked.push(request);
    return { action: 'accept', content: { name: 'Ada' } };
  };
  await withClient(core, `${urls.modes}/stateful`, { client: { elicitation } }, async (client) => {
    const result = await client.callTool('elicit', {});
    assert.equal(result.isError, false, 'isError');
    assert.deepEqual(JSON.parse(result.text), { action: 'accept', content: { name: 'Ada' } }, 'what the server got');
    assert.equal(asked.length, 1, 'handler calls');
    assert.equal(asked[0]?.message, 'What is your name?', 'elicitation message');
    assert.deepEqual(asked[0]?.requestedSchema?.required, ['name'], 'requested schema');
  });
}

/** A call's SSE stream cut after 2 events is resumed with GET + Last-Event-ID, not sent again. */
export async function resumedStream(core, urls, assert) {
  const fault = await createFaultScenario(urls.faults, {
    inner: 'resumable',
    rules: [onFirstToolCall({ type: 'drop-sse-after', events: 2 })],
  });
  await withClient(core, fault.mcp, {}, async (client) => {
    const seen = [];
    const result = await client.callTool('slow', { steps: 3, intervalMs: 20 }, { onProgress: (p) => seen.push(p) });
    assert.equal(result.text, 'done after 3 steps', 'result text');
    assert.deepEqual(
      seen.map((p) => p.progress),
      [1, 2, 3],
      'progress, before and after the cut',
    );
  });
  const stats = await readFaultStats(fault.stats);
  assert.equal(stats.rules[0].applied, 1, 'the stream was cut');
  const resumes = stats.requests.filter((r) => r.httpMethod === 'GET' && r.headers['last-event-id'] !== undefined);
  assert.ok(resumes.length >= 1, 'a GET with Last-Event-ID resumed the stream');
  assert.equal(stats.executions, 1, 'tools/call executions');
}

/** A 404 for the session (it expired) makes the client initialize again and resend the call once. */
export async function expiredSession(core, urls, assert) {
  const fault = await createFaultScenario(urls.faults, {
    inner: 'stateful',
    rules: [onFirstToolCall({ type: 'expire-session' })],
  });
  await withClient(core, fault.mcp, {}, async (client, transport) => {
    const first = transport.sessionId;
    const result = await client.callTool('echo', { text: 'after renewal' });
    assert.equal(result.text, 'after renewal', 'result text');
    assert.ok(transport.sessionId !== undefined && transport.sessionId !== first, 'a new session id');
  });
  const stats = await readFaultStats(fault.stats);
  assert.equal(stats.methods.initialize, 2, 'initialize requests');
  assert.equal(stats.executions, 1, 'tools/call executions');
}

/** A 503 with `Retry-After: 0` is retried under the retry policy; the tool runs once. */
export async function retryAfter503(core, urls, assert) {
  const fault = await createFaultScenario(urls.faults, {
    inner: 'stateful',
    rules: [onFirstToolCall({ type: 'status', status: 503, headers: { 'retry-after': '0' } })],
  });
  const transport = { retry: { maxRetries: 2, baseDelay: 10 } };
  await withClient(core, fault.mcp, { transport }, async (client) => {
    const result = await client.callTool('echo', { text: 'retried' });
    assert.equal(result.text, 'retried', 'result text');
  });
  const stats = await readFaultStats(fault.stats);
  assert.equal(stats.rules[0].applied, 1, 'the 503 was sent');
  assert.equal(stats.methods['tools/call'], 2, 'tools/call requests');
  assert.equal(stats.executions, 1, 'tools/call executions');
}

/** Starts a long `slow` call, aborts it at its first progress step, and checks it rejects with AbortError. */
async function abortAtFirstProgress(client, assert) {
  const controller = new AbortController();
  const call = client.callTool(
    'slow',
    { steps: 200, intervalMs: 20 },
    { signal: controller.signal, onProgress: () => controller.abort() },
  );
  const error = await assert.rejects(call, 'the aborted call');
  assert.equal(error?.name, 'AbortError', 'rejection name');
}

/** Aborting a running call rejects it with AbortError, tells the server, and leaves the client usable. */
export async function abortCall(core, urls, assert) {
  const fault = await createFaultScenario(urls.faults, { inner: 'stateful', rules: [] });
  await withClient(core, fault.mcp, {}, async (client) => {
    await abortAtFirstProgress(client, assert);
    const after = await client.callTool('echo', { text: 'still working' });
    assert.equal(after.text, 'still working', 'a call after the abort');
  });
  const stats = await eventually(
    () => readFaultStats(fault.stats),
    (s) => s.methods['notifications/cancelled'] === 1,
  );
  assert.equal(stats.methods['notifications/cancelled'], 1, 'notifications/cancelled sent');
}

/** Stateless JSON mode: no session, `application/json` answers, structured content intact. */
export async function statelessJson(core, urls, assert) {
  await withClient(core, `${urls.modes}/stateless`, {}, async (client, transport) => {
    assert.equal(transport.sessionId, undefined, 'session id');
    const result = await client.callTool('add', { a: 2, b: 3 });
    assert.equal(result.text, '5', 'result text');
    assert.deepEqual(result.structuredContent, { sum: 5 }, 'structured content');
    assert.equal((await client.listTools()).length, REFERENCE_TOOL_NAMES.length, 'tools across pages');
  });
}

/** A server that refuses `initialize` over POST gets the 2024-11-05 HTTP+SSE transport instead. */
export async function legacySseFallback(core, urls, assert) {
  await withClient(core, `${urls.modes}/legacy-sse`, {}, async (client, transport) => {
    assert.equal(transport.usesLegacySse, true, 'fell back to HTTP+SSE');
    assert.ok(core.SUPPORTED_PROTOCOL_VERSIONS.includes(client.protocolVersion), 'a supported version');
    const result = await client.callTool('echo', { text: 'over legacy SSE' });
    assert.equal(result.text, 'over legacy SSE', 'result text');
    assert.equal((await client.listTools()).length, REFERENCE_TOOL_NAMES.length, 'tools across pages');
  });
}

// ---------------------------------------------------------------------------
// 2026-07-28 (the `/v2` route of the modes server): stateless requests, MRTR,
// x-mcp-header, listen, TTL caching, cancellation and errors, in every runtime.

const MODERN = '2026-07-28';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/**
 * The `/v2` URL of the hub `name`: its tools, counts and listen streams are one
 * scenario's only (the servers start afresh for every run of the scenarios).
 */
function hubUrl(urls, name) {
  return `${urls.modes}/v2?hub=${name}`;
}

/** A `fetch` that records what the transport sent (method, headers, JSON-RPC message) and the status. */
function recordingFetch() {
  const calls = [];
  const recording = async (input, init = {}) => {
    let message;
    try {
      message = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      message = undefined;
    }
    const call = { httpMethod: init.method ?? 'GET', headers: new Headers(init.headers), message, signal: init.signal };
    calls.push(call);
    const response = await fetch(input, init);
    call.status = response.status;
    return response;
  };
  const methods = () => calls.map((call) => call.message?.method);
  const count = (method) => methods().filter((m) => m === method).length;
  return { fetch: recording, calls, methods, count };
}

/** `=?base64?…?=` of the UTF-8 bytes, as 2026-07-28 encodes header values that cannot go plain. */
function base64Sentinel(text) {
  return `=?base64?${toBase64(new TextEncoder().encode(text))}?=`;
}

/** The next event of a subscription, or a failure after `ms`. */
async function nextEvent(iterator, ms = 3000) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no subscription event within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([iterator.next(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A 2026-07-28 server is used statelessly: no initialize, every request enveloped, standard headers, no GET/DELETE/session. */
export async function modernStateless(core, urls, assert) {
  const recorder = recordingFetch();
  await withClient(
    core,
    hubUrl(urls, 'stateless'),
    { transport: { fetch: recorder.fetch } },
    async (client, transport) => {
      assert.equal(client.era, 'modern', 'era');
      assert.equal(client.protocolVersion, MODERN, 'protocol version');
      assert.equal((await client.callTool('echo', { text: 'hi' })).text, 'hi', 'echo');
      const item = await client.readResource('test://template/Zürich');
      assert.equal(item.contents[0]?.text, 'Item Zürich', 'a resource with a non-ASCII URI');
      assert.equal(transport.sessionId, undefined, 'session id');
    },
  );
  assert.deepEqual(
    recorder.calls.map((call) => call.httpMethod),
    recorder.calls.map(() => 'POST'),
    'only POSTs: no GET stream, no DELETE',
  );
  assert.ok(!recorder.methods().includes('initialize'), 'no initialize');
  for (const call of recorder.calls) {
    const meta = call.message?.params?._meta ?? {};
    assert.equal(meta[PROTOCOL_VERSION_META], MODERN, `${call.message?.method}: _meta protocolVersion`);
    assert.equal(call.headers.get('mcp-protocol-version'), MODERN, `${call.message?.method}: MCP-Protocol-Version`);
    assert.ok(meta['io.modelcontextprotocol/clientInfo'] !== undefined, `${call.message?.method}: _meta clientInfo`);
    assert.ok(
      meta['io.modelcontextprotocol/clientCapabilities'] !== undefined,
      `${call.message?.method}: capabilities`,
    );
    assert.equal(call.headers.get('mcp-method'), call.message?.method, 'Mcp-Method');
    assert.equal(call.headers.get('mcp-session-id'), null, 'no session header');
  }
  const named = recorder.calls.filter((call) => call.headers.get('mcp-name') !== null);
  assert.deepEqual(
    named.map((call) => call.headers.get('mcp-name')),
    ['echo', base64Sentinel('test://template/Zürich')],
    'Mcp-Name, base64 for non-ASCII',
  );
}

/** The same handler functions answer a legacy server's requests (/stateful, /legacy-sse) and 2026-07-28 input requests (/v2). */
export async function modernSameHandlers(core, urls, assert) {
  const targets = [
    [`${urls.modes}/stateful`, 'legacy'],
    [`${urls.modes}/legacy-sse`, 'legacy'],
    [hubUrl(urls, 'same'), 'modern'],
  ];
  for (const [url, era] of targets) {
    const { asked, options } = recordingHandlers();
    await withClient(core, url, { client: options }, async (client) => {
      assert.equal(client.era, era, `${url}: era`);
      assert.equal((await client.callTool('sample', { prompt: 'Say hi' })).text, 'sampled: Say hi', `${url}: sample`);
      assert.deepEqual(
        JSON.parse((await client.callTool('elicit')).text),
        { action: 'accept', content: { name: 'Ada 1' } },
        `${url}: elicit`,
      );
      assert.deepEqual(JSON.parse((await client.callTool('list-roots')).text), ROOTS, `${url}: list-roots`);
      assert.deepEqual(
        [asked.sampling.length, asked.elicitation.length, asked.roots],
        [1, 1, 1],
        `${url}: handler calls`,
      );
    });
  }
}

/** MRTR of every shape: several inputs in one round, several rounds with requestState, state only, prompts/get, resources/read, and the round limit. */
export async function mrtrShapes(core, urls, assert) {
  const url = hubUrl(urls, 'mrtr');
  const recorder = recordingFetch();
  const { asked, options } = recordingHandlers();
  await withClient(core, url, { client: options, transport: { fetch: recorder.fetch } }, async (client) => {
    const multi = JSON.parse((await client.callTool('mrtr-multi')).text);
    assert.deepEqual(Object.keys(multi).sort(), ['summary', 'user-name', 'workspace-roots'], 'mrtr-multi keys');
    assert.equal(multi.summary.content.text, 'sampled: Summarise the workspace', 'mrtr-multi sampling');
    assert.deepEqual(
      JSON.parse((await client.callTool('mrtr-rounds', { rounds: 3 })).text),
      ['Ada 2', 'Ada 3', 'Ada 4'],
      'mrtr-rounds 3',
    );
    assert.equal((await client.callTool('mrtr-state-only')).text, 'completed after a state-only round', 'state only');
    assert.equal((await client.getPrompt('mrtr-prompt')).messages[0]?.content[0]?.text, 'Hello, Ada 5!', 'prompt');
    const resource = await client.readResource('test://mrtr/resource');
    assert.deepEqual(JSON.parse(resource.contents[0]?.text), ROOTS, 'resource');
  });
  assert.equal(asked.elicitation.length, 5, 'elicitations');
  const ids = recorder.calls.map((call) => call.message?.id);
  assert.equal(new Set(ids).size, ids.length, 'every retry has a new id');
  const retries = recorder.calls.filter((call) => call.message?.params?.requestState !== undefined);
  assert.equal(retries.length, 3 + 1, 'retries carrying requestState (3 rounds, 1 state-only)');

  await withClient(core, url, { client: { ...options, limits: { maxInputRounds: 1 } } }, async (client) => {
    const error = await assert.rejects(client.callTool('mrtr-rounds', { rounds: 3 }), 'past maxInputRounds');
    assert.ok(/maxInputRounds/.test(error?.message ?? ''), `a clear error: ${error?.message}`);
  });
}

/** x-mcp-header: a call before listTools is refused (-32020), re-listed and retried; invalid tools dropped with warnings; Mcp-Param-* mirrored. */
export async function xMcpHeaders(core, urls, assert) {
  const warnings = [];
  const recorder = recordingFetch();
  const client = { onWarning: (message) => warnings.push(message) };
  await withClient(core, hubUrl(urls, 'headers'), { client, transport: { fetch: recorder.fetch } }, async (client) => {
    const result = await client.callTool('header-echo', { region: 'Zürich', count: 42, dryRun: false });
    const echo = JSON.parse(result.text);
    assert.deepEqual(
      echo.decoded,
      { 'mcp-param-region': 'Zürich', 'mcp-param-count': '42', 'mcp-param-dry-run': 'false' },
      'Mcp-Param-* headers the server received',
    );
    const statuses = recorder.calls.filter((call) => call.message?.method === 'tools/call').map((call) => call.status);
    assert.deepEqual(statuses, [400, 200], 'refused once (-32020), then retried after tools/list');
    assert.ok(recorder.count('tools/list') > 0, 'the tools were listed again');
    const absent = JSON.parse((await client.callTool('header-echo', { region: 'eu' })).text);
    assert.deepEqual(Object.keys(absent.decoded), ['mcp-param-region'], 'no header for absent arguments');
  });
  const dropped = ['bad-header-number', 'bad-header-dup', 'bad-header-nested', 'bad-header-token'];
  for (const tool of dropped) {
    assert.ok(
      warnings.some((warning) => warning.includes(`"${tool}"`)),
      `a warning names ${tool}: ${warnings.join(' | ')}`,
    );
  }
}

/** listen() on 2026-07-28: acknowledged filter, tools/list_changed and resources/updated caused by other requests, close ends it. */
export async function modernListen(core, urls, assert) {
  const uri = 'test://static/text/1';
  await withClient(core, hubUrl(urls, 'listen'), {}, async (client) => {
    const subscription = await client.listen({ toolsListChanged: true, resources: [uri] });
    const granted = await subscription.acknowledged;
    assert.deepEqual(granted, { toolsListChanged: true, resources: [uri] }, 'acknowledged filter');
    const events = subscription[Symbol.asyncIterator]();
    await client.callTool('add-tool');
    assert.equal((await nextEvent(events)).value?.method, 'notifications/tools/list_changed', 'list changed');
    await client.callTool('touch-resource', { uri });
    const updated = (await nextEvent(events)).value;
    assert.equal(updated?.method, 'notifications/resources/updated', 'resource updated');
    assert.equal(updated?.params?.uri, uri, 'updated uri');
    await subscription.close();
    assert.equal((await nextEvent(events)).done, true, 'the iteration ends on close');
  });
}

/** TTL caching: a second listTools within ttlMs sends nothing, cache:false forces one, tools/list_changed invalidates; legacy never caches. */
export async function ttlCache(core, urls, assert) {
  const recorder = recordingFetch();
  await withClient(core, hubUrl(urls, 'cache'), { transport: { fetch: recorder.fetch } }, async (client) => {
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    await client.listTools();
    const pages = recorder.count('tools/list');
    await client.listTools();
    assert.equal(recorder.count('tools/list'), pages, 'served from the cache');
    await client.listTools({ cache: false });
    assert.equal(recorder.count('tools/list'), 2 * pages, 'cache: false asks');
    await client.callTool('add-tool');
    await nextEvent(subscription[Symbol.asyncIterator]());
    const after = await client.listTools();
    assert.ok(recorder.count('tools/list') > 2 * pages, 'invalidated by tools/list_changed');
    assert.equal(after.at(-1)?.name, 'dynamic-1', 'the new tool is listed');
  });
  const legacy = recordingFetch();
  await withClient(core, `${urls.modes}/stateless`, { transport: { fetch: legacy.fetch } }, async (client) => {
    await client.listTools();
    await client.listTools();
    assert.equal(legacy.count('tools/list'), 6, 'legacy lists (no ttlMs) are never cached');
  });
}

/** Aborting a 2026-07-28 call over HTTP closes its stream and sends no notifications/cancelled. */
export async function modernAbort(core, urls, assert) {
  const recorder = recordingFetch();
  await withClient(core, hubUrl(urls, 'abort'), { transport: { fetch: recorder.fetch } }, async (client) => {
    await abortAtFirstProgress(client, assert);
    const counts = JSON.parse((await client.callTool('request-counts')).text);
    assert.equal(counts['notifications/cancelled'], undefined, 'the server got no notifications/cancelled');
  });
  assert.ok(!recorder.methods().includes('notifications/cancelled'), 'no notifications/cancelled sent');
}

/** Errors: a missing resource is a ResourceNotFoundError; -32022 to the probe is an UnsupportedVersionError with the supported list. */
export async function modernErrors(core, urls, assert) {
  await withClient(core, hubUrl(urls, 'errors'), {}, async (client) => {
    const error = await assert.rejects(client.readResource('test://static/text/99'), 'missing resource');
    assert.ok(error instanceof core.ResourceNotFoundError, `a ResourceNotFoundError: ${error?.name}`);
    assert.equal(error.uri, 'test://static/text/99', 'its uri');
  });
  const body = {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-01-01'] } },
  };
  const fault = await createFaultScenario(urls.faults, {
    rules: [{ match: { method: 'server/discover' }, action: { type: 'status', status: 400, body } }],
  });
  const client = new core.Client(new core.StreamableHttpTransport(fault.mcp), { eraCache: new Map() });
  const error = await assert.rejects(client.connect(), 'connect to a server that speaks no version of ours');
  assert.ok(error instanceof core.UnsupportedVersionError, `an UnsupportedVersionError: ${error?.name}`);
  assert.deepEqual(error.supported, ['2027-01-01'], 'the versions the server supports');
  const stats = await readFaultStats(fault.stats);
  assert.equal(stats.methods.initialize, undefined, 'no fallback to initialize');
}

/**
 * The era verdict lives in the `eraCache` a client is given: a second client
 * with the same cache skips the server/discover probe; one with a cache of its
 * own probes again (no hidden global state).
 */
export async function eraVerdictCached(core, urls, assert) {
  const url = `${urls.modes}/stateful`;
  const eraCache = new Map();
  const connectWith = async (client) => {
    const recorder = recordingFetch();
    await withClient(core, url, { client, transport: { fetch: recorder.fetch } }, async (connected) => {
      assert.equal(connected.era, 'legacy', 'era');
    });
    return recorder.methods();
  };
  assert.deepEqual(
    (await connectWith({ eraCache })).slice(0, 2),
    ['server/discover', 'initialize'],
    'the first probes',
  );
  assert.deepEqual([...eraCache.values()], ['legacy'], 'the verdict, in the cache the client was given');
  const second = await connectWith({ eraCache });
  assert.equal(second[0], 'initialize', 'the second client, same cache, goes straight to initialize');
  assert.ok(!second.includes('server/discover'), 'no probe with the same cache');
  const other = await connectWith({ eraCache: new Map() });
  assert.deepEqual(other.slice(0, 2), ['server/discover', 'initialize'], 'a client with a cache of its own probes');
}

/**
 * A tool's structuredContent is checked against the outputSchema it listed, by a
 * validator loaded on demand: a match passes, a mismatch is an OutputValidationError.
 */
export async function outputValidation(core, urls, assert) {
  await withClient(core, `${urls.modes}/v2?profile=structured`, {}, async (client) => {
    await client.listTools();
    const valid = await client.callTool('sum-report', { structured: { sum: 1 } });
    assert.deepEqual(valid.structuredContent, { sum: 1 }, 'structured content that matches');
    const error = await assert.rejects(
      client.callTool('sum-report', { structured: { sum: 'one' } }),
      'structured content that does not match',
    );
    assert.ok(error instanceof core.OutputValidationError, `an OutputValidationError, not ${error?.name}`);
    assert.equal(error.path, 'sum', 'the first failing path');
  });
}

/** Every scenario, in the order the runtimes run them; `name` is the function's name. */
export const scenarios = [
  { name: 'publicExports', title: 'the build loads and exports the public API', run: publicExports },
  { name: 'memoryPair', title: 'a MemoryTransport pair carries a message', run: memoryPair },
  {
    name: 'scriptedServerRoundTrip',
    title: 'a Client connects, lists tools and calls one against the scripted server',
    run: scriptedServerRoundTrip,
  },
  { name: 'connectAndListTools', title: 'connects and lists 11 tools across pages', run: connectAndListTools },
  { name: 'callWithProgress', title: 'a call reports every progress step', run: callWithProgress },
  {
    name: 'serverRequestAnsweredByHandler',
    title: 'a server request is answered by the handler',
    run: serverRequestAnsweredByHandler,
  },
  { name: 'resumedStream', title: 'a cut stream resumes with Last-Event-ID', run: resumedStream },
  { name: 'expiredSession', title: 'an expired session is renewed and the call resent', run: expiredSession },
  { name: 'retryAfter503', title: 'a 503 is retried and the tool runs once', run: retryAfter503 },
  { name: 'abortCall', title: 'an aborted call rejects with AbortError', run: abortCall },
  { name: 'statelessJson', title: 'stateless JSON mode works without a session', run: statelessJson },
  { name: 'legacySseFallback', title: 'falls back to legacy HTTP+SSE', run: legacySseFallback },
  { name: 'modernStateless', title: '2026-07-28: stateless, enveloped, standard headers', run: modernStateless },
  { name: 'modernSameHandlers', title: 'the same handlers serve legacy requests and MRTR', run: modernSameHandlers },
  { name: 'mrtrShapes', title: '2026-07-28: MRTR flows of every shape complete', run: mrtrShapes },
  { name: 'xMcpHeaders', title: '2026-07-28: x-mcp-header mirrored, invalid tools dropped', run: xMcpHeaders },
  { name: 'modernListen', title: '2026-07-28: listen delivers list changes and updates', run: modernListen },
  { name: 'ttlCache', title: '2026-07-28: TTL caching avoids a second request', run: ttlCache },
  { name: 'modernAbort', title: '2026-07-28: abort closes the stream, no cancelled', run: modernAbort },
  { name: 'modernErrors', title: '2026-07-28: ResourceNotFoundError and -32022', run: modernErrors },
  {
    name: 'eraVerdictCached',
    title: 'the era verdict is kept in the eraCache the client is given',
    run: eraVerdictCached,
  },
  { name: 'outputValidation', title: 'structured output is checked against its outputSchema', run: outputValidation },
];

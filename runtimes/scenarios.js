/* @ts-self-types="./scenarios.d.ts" */
/**
 * The end-to-end scenarios every runtime runs against the HTTP test servers
 * (test-servers/README.md): Node, Chromium, workerd, Deno and Bun. Plain ESM
 * with no imports beyond its siblings, so a page, a worker and every runtime
 * load this same file. Each scenario is `async (core, urls, assert) => void`:
 * `core` is the runtime's own import of @mcp/core (the bundle or the package),
 * `urls` the servers' base URLs `{ modes, faults }`, and `assert` the helper of
 * assert.js. Each one makes its own Client and closes it.
 */
import { createFaultScenario, onFirstToolCall, readFaultStats } from './faults.js';

/** The reference server's tools in list order: 11, so 3 pages at its page size of 5. */
const TOOL_NAMES = [
  'echo',
  'add',
  'mixed-content',
  'fail',
  'slow',
  'sample',
  'elicit',
  'list-roots',
  'log',
  'touch-resource',
  'add-tool',
];

/**
 * Connects a Client over Streamable HTTP to `url`, runs `body`, and always
 * closes it. Errors the client reports outside any call (`onError`) while in
 * use fail the scenario: none of these scenarios should produce one. Reports
 * made once `close()` has begun are not counted here: a notification still in
 * flight then (e.g. the `notifications/cancelled` of abortCall) is reported as
 * a ClientClosedError, a close-path matter for the client's own tests.
 */
async function withClient(core, url, { client: clientOptions = {}, transport: transportOptions = {} }, body) {
  const stray = [];
  let closing = false;
  const onError = (error) => {
    if (!closing) stray.push(error);
  };
  const transport = new core.StreamableHttpTransport(url, transportOptions);
  const client = new core.Client(transport, { ...clientOptions, onError });
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
      TOOL_NAMES,
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

/** Aborting a running call rejects it with AbortError, tells the server, and leaves the client usable. */
export async function abortCall(core, urls, assert) {
  const fault = await createFaultScenario(urls.faults, { inner: 'stateful', rules: [] });
  await withClient(core, fault.mcp, {}, async (client) => {
    const controller = new AbortController();
    const call = client.callTool(
      'slow',
      { steps: 200, intervalMs: 20 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    const error = await assert.rejects(call, 'the aborted call');
    assert.equal(error?.name, 'AbortError', 'rejection name');
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
    assert.equal((await client.listTools()).length, TOOL_NAMES.length, 'tools across pages');
  });
}

/** A server that refuses `initialize` over POST gets the 2024-11-05 HTTP+SSE transport instead. */
export async function legacySseFallback(core, urls, assert) {
  await withClient(core, `${urls.modes}/legacy-sse`, {}, async (client, transport) => {
    assert.equal(transport.usesLegacySse, true, 'fell back to HTTP+SSE');
    assert.ok(core.SUPPORTED_PROTOCOL_VERSIONS.includes(client.protocolVersion), 'a supported version');
    const result = await client.callTool('echo', { text: 'over legacy SSE' });
    assert.equal(result.text, 'over legacy SSE', 'result text');
    assert.equal((await client.listTools()).length, TOOL_NAMES.length, 'tools across pages');
  });
}

/** Every scenario, in the order the runtimes run them; `name` is the function's name. */
export const scenarios = [
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
];

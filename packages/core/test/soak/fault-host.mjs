import { createServer } from 'node:http';
import { perform } from '../../../../test-servers/http/fault-actions.mjs';
import { firstMessage } from '../../../../test-servers/http/fault-scenario.mjs';
import { toNodeListener } from '../../../../test-servers/http/node-adapter.mjs';
import { createSessionEndpoint } from '../../../../test-servers/http/session-endpoint.mjs';
// The SDK the test servers depend on, by path: it is not a dependency of @mcp/core.
import { WebStandardStreamableHTTPServerTransport } from '../../../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.js';
import { createV1Server } from '../../../../test-servers/reference/v1-server.mjs';

/**
 * @typedef {import('../../../../test-servers/http/fault-script.mjs').FaultAction} FaultAction
 * @typedef {{ httpMethod: string, method: string | undefined, id: string | number | undefined, tool: string | undefined, sessionId: string | undefined, token: string | undefined }} Facts
 */

/**
 * The fault server's actions (test-servers/http/fault-actions.mjs) in front of
 * the same resumable v1 reference server, but chosen per request by `choose`
 * (a seeded PRNG in the soak) instead of a fixed script, and with the one
 * record the fault server's stats lack: how often each call's token was
 * executed, counted where the message enters the SDK server, so a call the
 * client sent twice is caught running twice.
 *
 * @param {(facts: Facts) => FaultAction | undefined} choose
 */
export async function startFaultHost(choose) {
  /** @type {Map<string, number>} tools/call executions per `arguments.token` */
  const executions = new Map();
  /** @type {Map<string, number>} tools/call POSTs per token (more than one: the client sent it again) */
  const posts = new Map();
  /** @type {Record<string, number>} */
  const faults = {};
  /** @type {Record<string, number>} */
  const methods = {};
  /** @type {Record<string, number>} requests after the handshake that carried no Mcp-Session-Id, per method */
  const sessionless = {};
  /** Responses the server is still writing: after the clients close, none may be left. */
  let openResponses = 0;

  const endpoint = createSessionEndpoint({
    Transport: WebStandardStreamableHTTPServerTransport,
    createServer: () => createV1Server(),
    sessions: true,
    resumable: true,
    retryMs: 10,
    observe: (message) => {
      const token = tokenOf(message);
      if (token !== undefined) executions.set(token, (executions.get(token) ?? 0) + 1);
    },
  });
  /** Ends what fault actions hold (stalls, held streams) when the host closes. */
  const held = new AbortController();

  /** @param {Request} request */
  async function handle(request) {
    const text = request.method === 'POST' ? await request.text() : undefined;
    const first = firstMessage(text);
    const method = typeof first?.method === 'string' ? first.method : undefined;
    const id = typeof first?.id === 'string' || typeof first?.id === 'number' ? first.id : undefined;
    const token = tokenOf(first);
    const tool = method === 'tools/call' ? /** @type {any} */ (first?.params)?.name : undefined;
    if (method !== undefined) methods[method] = (methods[method] ?? 0) + 1;
    if (token !== undefined) posts.set(token, (posts.get(token) ?? 0) + 1);
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    // 2025-11-25, Session Management: once a session exists, every request carries its id.
    if (sessionId === undefined && method !== undefined && method !== 'initialize') {
      sessionless[method] = (sessionless[method] ?? 0) + 1;
    }
    const facts = { httpMethod: request.method, method, id, tool, sessionId, token };
    const forward = () =>
      endpoint.handle(
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          signal: request.signal,
          ...(text !== undefined && { body: text }),
        }),
      );
    const action = choose(facts);
    if (action === undefined) return forward();
    const kind = faultKind(action);
    faults[kind] = (faults[kind] ?? 0) + 1;
    return perform(action, {
      facts,
      forward,
      expire: endpoint.expire,
      redirectTarget: request.url,
      signal: AbortSignal.any([request.signal, held.signal]),
    });
  }

  const listener = toNodeListener(handle);
  const server = createServer((req, res) => {
    openResponses++;
    res.on('close', () => openResponses--);
    listener(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    executions,
    posts,
    faults,
    methods,
    sessionless,
    /** Responses still open (streams a client never let go of, or requests in flight). */
    openResponses: () => openResponses,
    sessions: () => endpoint.size(),
    async close() {
      held.abort();
      await endpoint.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}

/**
 * The soak's per-call marker: each call echoes a unique text, so the `text`
 * argument of a `tools/call` names the call it belongs to.
 * @param {unknown} message
 * @returns {string | undefined}
 */
function tokenOf(message) {
  const m = /** @type {{ method?: unknown, params?: { arguments?: { text?: unknown } } } | undefined} */ (message);
  if (m?.method !== 'tools/call') return undefined;
  const text = m.params?.arguments?.text;
  return typeof text === 'string' ? text : undefined;
}

/**
 * A short name for a fault, for the summary.
 * @param {FaultAction} action
 */
export function faultKind(action) {
  switch (action.type) {
    case 'status':
      return `status-${action.status}`;
    case 'drop-sse-after':
      return `drop-sse-after-${action.events}-${action.how}`;
    case 'malformed':
      return `malformed-${action.kind}`;
    default:
      return action.type;
  }
}

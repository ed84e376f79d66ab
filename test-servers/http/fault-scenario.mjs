import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createV1Server } from '../reference/v1-server.mjs';
import { perform } from './fault-actions.mjs';
import { createRuleMatcher } from './fault-script.mjs';
import { serverOptionsFrom } from './server-options.mjs';
import { createSessionEndpoint } from './session-endpoint.mjs';

/**
 * One request as a scenario saw it.
 * @typedef {object} SeenRequest
 * @property {string} httpMethod
 * @property {string} path path and query
 * @property {string | undefined} method JSON-RPC method
 * @property {string | number | undefined} id JSON-RPC id
 * @property {Record<string, string>} headers every request header, lower-case names
 * @property {number | null} rule index of the rule that acted on it, null if none did
 */

/**
 * @typedef {object} ScenarioStats
 * @property {SeenRequest[]} requests every request to the scenario's MCP endpoint, in arrival order
 * @property {Record<string, number>} methods requests seen per JSON-RPC method
 * @property {number} executions how many `tools/call` requests reached the inner MCP server
 * @property {Record<string, number>} executed messages that reached the inner server, per method
 * @property {Omit<SeenRequest, 'rule'>[]} redirected requests that arrived at the redirect target
 * @property {{ matched: number, applied: number }[]} rules per rule: requests matched, times it acted
 * @property {number} sessions sessions the inner server holds open
 */

/**
 * A fault scenario: a real v1 reference server (resumable by default) behind
 * the script's rules, with a record of everything that reached it.
 * @param {string} id
 * @param {import('./fault-script.mjs').FaultScript} script
 * @param {{ otherOrigin: () => string | undefined, held: Set<AbortController> }} options
 *   `held`: the controllers of stalled and held-open requests, aborted when the fault handler closes
 */
export function createFaultScenario(id, script, { otherOrigin, held }) {
  /** @type {Omit<ScenarioStats, 'rules' | 'sessions'>} */
  const stats = { requests: [], methods: {}, executions: 0, executed: {}, redirected: [] };
  const endpoint = createSessionEndpoint({
    Transport: WebStandardStreamableHTTPServerTransport,
    createServer: (url) => createV1Server(serverOptionsFrom(url)),
    sessions: script.inner !== 'stateless',
    resumable: script.inner === 'resumable',
    jsonResponse: script.inner === 'stateless',
    // Counted where the message enters the SDK server, so a request the script
    // dropped before this point is provably not executed.
    observe: (message) => {
      const method = /** @type {{ method?: unknown }} */ (message).method;
      if (typeof method !== 'string') return;
      stats.executed[method] = (stats.executed[method] ?? 0) + 1;
      if (method === 'tools/call') stats.executions += 1;
    },
  });
  const matcher = createRuleMatcher(script.rules);

  return {
    /**
     * Serves one request to `/faults/<id>/mcp` under the script.
     * @param {Request} request
     */
    async serve(request) {
      const { seen, body } = await inspect(request);
      const facts = { ...seen, tool: toolOf(body), sessionId: seen.headers['mcp-session-id'] };
      const rule = matcher.match(facts);
      stats.requests.push({ ...seen, rule: rule?.index ?? null });
      if (seen.method !== undefined) stats.methods[seen.method] = (stats.methods[seen.method] ?? 0) + 1;
      const forward = () => endpoint.handle(rebuild(request, body));
      if (rule === undefined) return forward();
      const url = new URL(request.url);
      return perform(rule.action, {
        facts,
        forward,
        expire: endpoint.expire,
        redirectTarget: `${otherOrigin() ?? url.origin}/faults/${id}/target${url.search}`,
        signal: ['stall', 'hold-open', 'refuse-and-stall'].includes(rule.action.type)
          ? hold(request, held)
          : request.signal,
      });
    },
    /**
     * Serves the redirect target `/faults/<id>/target`: records what arrived
     * (did the client forward Authorization across origins?) and answers with
     * the inner server, no rules applied.
     * @param {Request} request
     */
    async target(request) {
      const { seen, body } = await inspect(request);
      stats.redirected.push(seen);
      return endpoint.handle(rebuild(request, body));
    },
    /** @returns {ScenarioStats} */
    stats: () => ({ ...stats, rules: matcher.counts(), sessions: endpoint.size() }),
    close: () => endpoint.close(),
  };
}

/**
 * A signal that aborts when the client goes away or the fault handler closes.
 * Made per request, in the request's own context: workerd forbids touching an
 * AbortSignal created while serving another request.
 * @param {Request} request
 * @param {Set<AbortController>} held
 */
function hold(request, held) {
  const controller = new AbortController();
  held.add(controller);
  controller.signal.addEventListener('abort', () => held.delete(controller), { once: true });
  if (request.signal.aborted) controller.abort();
  else request.signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller.signal;
}

/**
 * Reads what the rules match on; the body is read once and kept for forwarding.
 * @param {Request} request
 */
async function inspect(request) {
  const url = new URL(request.url);
  const body = request.method === 'POST' ? await request.text() : undefined;
  const first = firstMessage(body);
  const method = typeof first?.method === 'string' ? first.method : undefined;
  const id =
    method !== undefined && (typeof first?.id === 'string' || typeof first?.id === 'number') ? first.id : undefined;
  return {
    body: { text: body, first },
    seen: {
      httpMethod: request.method,
      path: `${url.pathname}${url.search}`,
      method,
      id,
      headers: Object.fromEntries(request.headers),
    },
  };
}

/**
 * The first JSON-RPC message of a POST body (a batch's first), or undefined when it is not JSON.
 * @param {string | undefined} text
 * @returns {Record<string, unknown> | undefined}
 */
export function firstMessage(text) {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text);
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return typeof first === 'object' && first !== null ? first : undefined;
  } catch {
    return undefined;
  }
}

/** @param {{ first: Record<string, unknown> | undefined }} body */
function toolOf({ first }) {
  const params = /** @type {{ name?: unknown } | undefined} */ (first?.params);
  return first?.method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/**
 * The request again, with the body already read, for the inner server.
 * @param {Request} request
 * @param {{ text: string | undefined }} body
 */
function rebuild(request, { text }) {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(text !== undefined && { body: text }),
  });
}

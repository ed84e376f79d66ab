import { getEventListeners, setMaxListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { firstMessage } from '../../../../test-servers/http/fault-scenario.mjs';
import { faultKind, startFaultHost } from './fault-host.mjs';
import { prng } from './prng.mjs';
import { activeResources, formatCounts, formatResources, grownResources } from './tallies.mjs';
import { untilIdle } from './until-idle.mjs';

/**
 * The soak (issue 12): thousands of calls from several clients through random
 * network faults, then proof that nothing was lost or left behind. Shared by
 * `pnpm soak` (scripts/soak.mjs, on the built package) and the short run in
 * the test suite (soak.test.ts, on the sources): the caller hands in `Client`
 * and `StreamableHttpTransport`.
 *
 * @typedef {object} SoakOptions
 * @property {any} Client the Client class under test
 * @property {any} StreamableHttpTransport the transport class under test
 * @property {any} McpError every typed error the SDK throws extends it
 * @property {number} [calls] calls in all (default 1500)
 * @property {number} [seconds] stop starting calls after this long (default: no limit)
 * @property {number} [clients] clients running side by side (default 4)
 * @property {number} [concurrency] calls in flight per client (default 4)
 * @property {number} [seed] seeds the fault PRNG (default 12)
 * @property {number} [faultRate] share of `tools/call` requests that meet a fault (default 0.3)
 * @property {(line: string) => void} [log] progress lines
 */

/**
 * @typedef {object} SoakReport
 * @property {number} calls calls started
 * @property {number} resolved
 * @property {Record<string, number>} rejected rejections by error name
 * @property {Record<string, number>} reasons rejections by error name and message (digits blanked)
 * @property {string[]} unhandled unhandled rejections during the run
 * @property {string[]} untyped rejections that are not McpError (first few), with their message
 * @property {number} unsettled calls that never settled
 * @property {Record<string, number>} faults faults injected, by kind
 * @property {number} resent `tools/call` requests the client sent again for a call it had sent
 * @property {Record<string, number>} sessionless requests other than `initialize` sent without a session id, per method
 * @property {number} renewals session renewals: `initialize` sent by a client after a 404 to its session id
 * @property {number} reconnects clients replaced after their connection ended
 * @property {number} maxExecutions most executions of any one call's token on the server
 * @property {string[]} ranTwice tokens executed more than once
 * @property {string[]} resolvedUnrun tokens whose call resolved but that never ran, or resolved with the wrong text
 * @property {number} maxAbortListeners most abort listeners on the shared call signal while calls ran
 * @property {number} inFlight most calls in flight at once (clients × concurrency)
 * @property {number} abortListenersAfter abort listeners left on the shared call signal at the end
 * @property {number} openResponsesAfter server responses still open after every client closed
 * @property {Record<string, [number, number]>} resources active handles by type, before and after
 * @property {{ before: number, after: number }} heap MB used after a full GC, after warm-up and at the end
 * @property {number} seconds
 */

/** Resource types whose count must come back to where it was. */
const COUNTED = ['Timeout', 'TCPSocketWrap', 'TCPServerWrap', 'Immediate'];

/** Heap growth the soak tolerates (MB): generous, so only a real leak fails it. */
export const HEAP_TOLERANCE_MB = 20;

/**
 * The fault chooser: for `tools/call`, random resets before and after
 * delivery, 503s (with and without Retry-After), dropped SSE streams,
 * session expiries and malformed answers; for resumption GETs, resets and
 * 503s; and now and then a 503 storm that refuses every request for a while.
 * @param {() => number} random
 * @param {number} faultRate
 */
function faultChooser(random, faultRate) {
  let storm = 0;
  /** @type {import('./fault-host.mjs').FaultAction[]} */
  const onCall = [
    { type: 'reset-before' },
    { type: 'reset-after' },
    { type: 'status', status: 503 },
    { type: 'status', status: 503, headers: { 'retry-after': '0' } },
    { type: 'drop-sse-after', events: 0, how: 'end' },
    { type: 'drop-sse-after', events: 1, how: 'end' },
    { type: 'drop-sse-after', events: 1, how: 'reset' },
    { type: 'expire-session' },
    { type: 'malformed', kind: 'not-json' },
    { type: 'malformed', kind: 'sse-bad-data' },
  ];
  /** @type {import('./fault-host.mjs').FaultAction[]} */
  const onGet = [{ type: 'reset-before' }, { type: 'status', status: 503 }];
  const pick = (/** @type {any[]} */ list) => list[Math.floor(random() * list.length)];
  return (/** @type {import('./fault-host.mjs').Facts} */ facts) => {
    if (facts.httpMethod === 'DELETE' || facts.method?.startsWith('notifications/')) return undefined;
    if (storm > 0) {
      storm--;
      return { type: 'status', status: 503, headers: { 'retry-after': '0' } };
    }
    if (random() < 0.002) storm = 3 + Math.floor(random() * 10);
    if (facts.method === 'tools/call') return random() < faultRate ? pick(onCall) : undefined;
    if (facts.httpMethod === 'GET') return random() < faultRate ? pick(onGet) : undefined;
    return undefined;
  };
}

/** `global.gc`, exposed on the fly when the process was started without --expose-gc. */
function collector() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return /** @type {() => void} */ (runInNewContext('gc'));
}

/** MB of heap in use after full collections. */
async function heapMb(/** @type {() => void} */ gc) {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Waits until `check()` holds or `ms` pass; returns whether it held. */
async function settle(/** @type {() => boolean} */ check, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** How long no call may settle before the soak stops waiting and reports the rest unsettled. */
const STUCK_MS = 30_000;

/**
 * The method of the first JSON-RPC message in a request body.
 * @param {string} body
 */
function firstMethod(body) {
  const first = firstMessage(body);
  return typeof first?.method === 'string' ? first.method : undefined;
}

/**
 * Runs the soak and reports what it saw; {@link problems} says what broke.
 * @param {SoakOptions} options
 * @returns {Promise<SoakReport>}
 */
export async function runSoak(options) {
  const { Client, StreamableHttpTransport, McpError, log = () => {} } = options;
  const total = options.calls ?? 1500;
  const clients = options.clients ?? 4;
  const concurrency = options.concurrency ?? 4;
  const seed = options.seed ?? 12;
  const gc = collector();
  const started = Date.now();
  const deadline = options.seconds === undefined ? Number.POSITIVE_INFINITY : started + options.seconds * 1000;

  const resourcesBefore = activeResources(COUNTED);
  const host = await startFaultHost(faultChooser(prng(seed), options.faultRate ?? 0.3));
  /** A signal every call carries, as an app's shutdown signal would: no call may leave a listener on it. */
  const appSignal = new AbortController().signal;
  // One listener per call in flight is expected; more would be a leak, and `problems` says so.
  setMaxListeners(clients * concurrency + 1, appSignal);
  let maxAbortListeners = 0;

  /** @type {Record<string, number>} */
  const rejected = {};
  /** @type {string[]} */
  const untyped = [];
  /** @type {Record<string, number>} rejections by error name and message (ports and ids blanked), for the summary */
  const reasons = {};
  /** @type {unknown[]} */
  const unhandled = [];
  const onUnhandled = (/** @type {unknown} */ reason) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  /** @type {Map<string, string>} resolved calls: token → the text they resolved with */
  const resolved = new Map();
  let startedCalls = 0;
  let settledCalls = 0;
  let heapBefore = 0;
  let measuring = false;
  const warmUp = Math.min(200, Math.floor(total / 5));

  let reconnects = 0;
  let renewals = 0;

  /**
   * A fetch that counts session renewals: an `initialize` this client sends
   * after a 404 to a request that carried its session id (2025-11-25,
   * Session Management). Retries of one renewal's `initialize` count once.
   * @returns {typeof fetch}
   */
  const renewalCounter = () => {
    let expired = false;
    return async (input, init) => {
      const headers = new Headers(init?.headers);
      const body = typeof init?.body === 'string' ? init.body : '';
      if (expired && init?.method === 'POST' && firstMethod(body) === 'initialize') {
        expired = false;
        renewals++;
      }
      const response = await fetch(input, init);
      if (response.status === 404 && headers.has('mcp-session-id')) expired = true;
      return response;
    };
  };

  /** Attempts to connect a client (a 503 storm may refuse a handshake past its retries). */
  const OPEN_ATTEMPTS = 5;

  /** @param {number} n */
  const open = async (n) => {
    for (let attempt = 1; ; attempt++) {
      const transport = new StreamableHttpTransport(host.url, {
        retry: { maxRetries: 3, baseDelay: 5, maxDelay: 50 },
        maxResumeAttempts: 3,
        fetch: renewalCounter(),
      });
      const client = new Client(transport, {
        protocolVersion: '2025-11-25',
        requestTimeout: 20_000,
        clientInfo: { name: `soak-${n}`, version: '1.0.0' },
        onError: () => {},
      });
      try {
        await client.connect();
        return client;
      } catch (error) {
        await client.close();
        if (attempt === OPEN_ATTEMPTS) throw error;
      }
    }
  };

  /**
   * One call: a unique token through `echo`; its outcome is recorded once.
   * Returns whether the client's connection had ended (the call failed with
   * ClientClosedError, and the soak closes a client only once its workers are done).
   */
  const call = async (/** @type {any} */ client) => {
    const token = `t${startedCalls++}`;
    try {
      const result = await client.callTool('echo', { text: token }, { signal: appSignal });
      resolved.set(token, result.text);
      return false;
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      rejected[name] = (rejected[name] ?? 0) + 1;
      const reason = `${name}: ${String(error?.message).replace(/\d+/g, 'N').slice(0, 100)}`;
      reasons[reason] = (reasons[reason] ?? 0) + 1;
      if (!(error instanceof McpError) && untyped.length < 5) untyped.push(`${name}: ${String(error?.message)}`);
      return name === 'ClientClosedError';
    } finally {
      settledCalls++;
      maxAbortListeners = Math.max(maxAbortListeners, getEventListeners(appSignal, 'abort').length);
    }
  };

  /** One client's share: `concurrency` workers calling until the total (or the time) is reached. */
  const drive = async (/** @type {number} */ n) => {
    let client = await open(n);
    /**
     * The replacement under way, shared: every worker that saw the connection
     * end waits for the one new client, and the old one is closed first, as an
     * app would (one replacement each, or all but the last left open, would leak).
     * @type {Promise<void> | undefined}
     */
    let replacing;
    /** @param {any} ended */
    const replace = (ended) => {
      if (client !== ended) return replacing;
      replacing ??= (async () => {
        await ended.close();
        client = await open(n);
        reconnects++;
      })().finally(() => {
        replacing = undefined;
      });
      return replacing;
    };
    const worker = async () => {
      while (startedCalls < total && Date.now() < deadline) {
        if (replacing) await replacing;
        const used = client;
        // A connection that ended for good is replaced.
        if (await call(used)) await replace(used);
        if (settledCalls >= warmUp && !measuring) {
          measuring = true;
          heapBefore = await heapMb(gc);
        }
        if (settledCalls % 500 === 0) log(`${settledCalls} calls settled`);
      }
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, worker));
    } finally {
      await replacing?.catch(() => {});
      await client.close();
    }
  };

  await untilIdle(Promise.all(Array.from({ length: clients }, (_, n) => drive(n))), () => settledCalls, STUCK_MS);
  const unsettled = startedCalls - settledCalls;

  // Every client is closed: the server must hold no response open for them.
  await settle(() => host.openResponses() === 0);
  const openResponsesAfter = host.openResponses();
  const heapAfter = await heapMb(gc);
  await host.close();
  await settle(() => {
    const now = activeResources(COUNTED);
    return COUNTED.every((type) => (now[type] ?? 0) <= (resourcesBefore[type] ?? 0));
  });
  const resourcesAfter = activeResources(COUNTED);

  process.off('unhandledRejection', onUnhandled);

  let maxExecutions = 0;
  /** @type {string[]} */
  const ranTwice = [];
  for (const [token, count] of host.executions) {
    maxExecutions = Math.max(maxExecutions, count);
    if (count > 1) ranTwice.push(token);
  }
  /** @type {string[]} */
  const resolvedUnrun = [];
  for (const [token, text] of resolved) {
    if (host.executions.get(token) !== 1 || text !== token) resolvedUnrun.push(token);
  }
  let resent = 0;
  for (const count of host.posts.values()) resent += count - 1;

  return {
    calls: startedCalls,
    resolved: resolved.size,
    rejected,
    reasons,
    untyped,
    unhandled: unhandled.map((reason) =>
      reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason),
    ),
    unsettled,
    faults: { ...host.faults },
    resent,
    renewals,
    reconnects,
    sessionless: { ...host.sessionless },
    maxExecutions,
    ranTwice,
    resolvedUnrun,
    maxAbortListeners,
    inFlight: clients * concurrency,
    abortListenersAfter: getEventListeners(appSignal, 'abort').length,
    openResponsesAfter,
    resources: Object.fromEntries(
      COUNTED.map((type) => [type, [resourcesBefore[type] ?? 0, resourcesAfter[type] ?? 0]]),
    ),
    heap: { before: heapBefore, after: heapAfter },
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * What a report shows went wrong; empty when the soak passed. Counts that must
 * be exact are compared exactly; memory within {@link HEAP_TOLERANCE_MB}.
 * @param {SoakReport} report
 * @returns {string[]}
 */
export function problems(report) {
  /** @type {string[]} */
  const found = [];
  if (report.unsettled > 0) found.push(`${report.unsettled} calls never settled`);
  if (report.unhandled.length > 0) found.push(`unhandled rejections: ${report.unhandled.slice(0, 5).join('; ')}`);
  if (report.untyped.length > 0) found.push(`untyped rejections: ${report.untyped.join('; ')}`);
  if (report.ranTwice.length > 0) found.push(`calls executed twice: ${report.ranTwice.slice(0, 10).join(', ')}`);
  if (report.resolvedUnrun.length > 0) {
    found.push(`calls resolved without exactly one execution: ${report.resolvedUnrun.slice(0, 10).join(', ')}`);
  }
  const sessionless = Object.entries(report.sessionless);
  if (sessionless.length > 0) {
    found.push(`requests without a session id: ${sessionless.map(([method, n]) => `${method} ${n}`).join(', ')}`);
  }
  if (report.abortListenersAfter > 0)
    found.push(`${report.abortListenersAfter} abort listeners left on the call signal`);
  if (report.openResponsesAfter > 0) found.push(`${report.openResponsesAfter} server responses still open after close`);
  found.push(...grownResources(report.resources));
  if (report.maxAbortListeners > report.inFlight) {
    found.push(
      `${report.maxAbortListeners} abort listeners on the call signal with at most ${report.inFlight} calls in flight`,
    );
  }
  const growth = report.heap.after - report.heap.before;
  if (growth > HEAP_TOLERANCE_MB) found.push(`heap grew ${growth.toFixed(1)} MB (tolerance ${HEAP_TOLERANCE_MB} MB)`);
  return found;
}

/**
 * The report as a few lines for a terminal.
 * @param {SoakReport} r
 */
export function summary(r) {
  const kinds = formatCounts;
  return [
    `soak: ${r.calls} calls in ${r.seconds.toFixed(1)} s: ${r.resolved} resolved, rejected: ${kinds(r.rejected)}, unsettled ${r.unsettled}`,
    ...Object.entries(r.reasons)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 10)
      .map(([reason, n]) => `  ${String(n).padStart(5)} × ${reason}`),
    `faults: ${kinds(r.faults)}`,
    `client resends of a tools/call: ${r.resent}, session renewals: ${r.renewals}, reconnects: ${r.reconnects}, max executions per call: ${r.maxExecutions}`,
    `requests sent without a session id: ${kinds(r.sessionless)}`,
    `abort listeners: max ${r.maxAbortListeners} while running, ${r.abortListenersAfter} after; open responses after close: ${r.openResponsesAfter}`,
    `resources: ${formatResources(r.resources)}`,
    `heap after GC: ${r.heap.before.toFixed(1)} MB after warm-up, ${r.heap.after.toFixed(1)} MB at the end (${(r.heap.after - r.heap.before).toFixed(1)} MB)`,
  ].join('\n');
}

export { faultKind };

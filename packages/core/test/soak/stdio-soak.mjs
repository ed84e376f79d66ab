import { getEventListeners, setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { prng } from './prng.mjs';
import { activeResources, formatCounts, formatResources, grownResources } from './tallies.mjs';
import { untilIdle } from './until-idle.mjs';

/** The reference server over stdio, which the soak starts, kills and restarts. */
const SERVER = fileURLToPath(new URL('../../../../test-servers/stdio.mjs', import.meta.url));

/**
 * The stdio leg of the soak: rounds of a client on a fresh child process
 * (`test-servers/stdio.mjs`), each round with calls in flight when, at random,
 * the server crashes in a call (`--exit-on-call`), is killed from outside,
 * writes lines that are not JSON (`--noise`), or the client closes under its
 * calls. Afterwards: every call settled once (its result or a typed error),
 * every child is gone, and no pipe, process handle or abort listener is left.
 *
 * @typedef {object} StdioSoakOptions
 * @property {any} Client
 * @property {any} StdioTransport
 * @property {any} McpError
 * @property {number} [rounds] child processes started one after another (default 12)
 * @property {number} [callsPerRound] calls started in each round, all at once (default 20)
 * @property {number} [seed] seeds the PRNG that picks each round's fault (default 12)
 * @property {number} [stuckMs] how long a round waits with no call settling before it
 *   reports the rest unsettled and moves on (default 15000: past the client's 10 s requestTimeout)
 *
 * @typedef {object} StdioSoakReport
 * @property {number} rounds
 * @property {number} calls
 * @property {number} resolved
 * @property {Record<string, number>} rejected rejections by error name
 * @property {string[]} untyped rejections that are not McpError (first few)
 * @property {string[]} wrongResults calls that resolved with another call's text
 * @property {number} unsettled calls that had not settled when their round stopped waiting
 * @property {Record<string, number>} faults rounds by fault
 * @property {Record<string, { calls: number, answered: number }>} byFault calls per fault, and those
 *   answered with their own text (a round without a fault, or with only noise, must answer all)
 * @property {number[]} aliveAfter children still running after their client closed
 * @property {number} abortListenersAfter
 * @property {Record<string, [number, number]>} resources process and pipe handles, before and after
 * @property {number} seconds
 */

/** Handle types a child process holds in the parent: its process and its three pipes. */
const COUNTED = ['ProcessWrap', 'PipeWrap'];

/**
 * Each counted handle type: how many there were `before`, and how many now.
 * @param {Record<string, number>} before
 * @returns {Record<string, [number, number]>}
 */
function resourcesNow(before) {
  const now = activeResources(COUNTED);
  return Object.fromEntries(COUNTED.map((type) => [type, [before[type] ?? 0, now[type] ?? 0]]));
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const delay = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Faults under which every call must still get its answer: noise is not JSON-RPC, and is skipped. */
const HARMLESS = ['none', 'noise'];

/**
 * @param {StdioSoakOptions} options
 * @returns {Promise<StdioSoakReport>}
 */
export async function runStdioSoak(options) {
  const { Client, StdioTransport, McpError } = options;
  const rounds = options.rounds ?? 12;
  const perRound = options.callsPerRound ?? 20;
  const stuckMs = options.stuckMs ?? 15_000;
  const random = prng(options.seed ?? 12);
  const started = Date.now();
  const before = activeResources(COUNTED);
  const appSignal = new AbortController().signal;
  setMaxListeners(perRound + 1, appSignal);

  /** @type {Record<string, number>} */
  const rejected = {};
  /** @type {string[]} */
  const untyped = [];
  /** @type {string[]} */
  const wrongResults = [];
  /** @type {Record<string, number>} */
  const faults = {};
  /** @type {number[]} */
  const pids = [];
  /** @type {Record<string, { calls: number, answered: number }>} */
  const byFault = {};
  let calls = 0;
  let resolved = 0;
  let unsettled = 0;

  for (let round = 0; round < rounds; round++) {
    const fault = /** @type {const} */ (['none', 'crash-in-call', 'kill', 'noise', 'close-under-calls'])[
      Math.floor(random() * 5)
    ];
    faults[fault] = (faults[fault] ?? 0) + 1;
    const tally = byFault[fault] ?? { calls: 0, answered: 0 };
    byFault[fault] = tally;
    const args = [SERVER, ...(fault === 'crash-in-call' ? ['--exit-on-call', 'fail'] : [])];
    if (fault === 'noise') args.push('--noise');
    const transport = new StdioTransport({ command: process.execPath, args, stderr: 'ignore', closeTimeout: 500 });
    const client = new Client(transport, { requestTimeout: 10_000, onError: () => {} });
    await client.connect();
    if (transport.pid !== undefined) pids.push(transport.pid);

    const crashAt = Math.floor(random() * perRound);
    let settled = 0;
    const pending = Array.from({ length: perRound }, (_, i) => {
      const text = `r${round}c${i}`;
      calls++;
      tally.calls++;
      const call =
        fault === 'crash-in-call' && i === crashAt
          ? client.callTool('fail', {}, { signal: appSignal })
          : client.callTool('echo', { text }, { signal: appSignal });
      return call.then(
        (/** @type {{ text: string, isError: boolean }} */ result) => {
          settled++;
          resolved++;
          if (!result.isError && result.text === text) tally.answered++;
          else if (!result.isError) wrongResults.push(`${text} → ${result.text}`);
        },
        (/** @type {unknown} */ error) => {
          settled++;
          const name = error instanceof Error ? error.name : typeof error;
          rejected[name] = (rejected[name] ?? 0) + 1;
          if (!(error instanceof McpError) && untyped.length < 5) {
            untyped.push(`${name}: ${String(/** @type {any} */ (error)?.message)}`);
          }
        },
      );
    });
    if (fault === 'kill' && transport.pid !== undefined) {
      await delay(Math.floor(random() * 20));
      process.kill(transport.pid, 'SIGKILL');
    }
    if (fault === 'close-under-calls') {
      await delay(Math.floor(random() * 10));
      await client.close();
    }
    // Bounded: a call that never settles is counted here, before close() would end it.
    await untilIdle(Promise.all(pending), () => settled, stuckMs);
    unsettled += perRound - settled;
    await client.close();
  }

  // Children close their pipes a moment after they exit.
  const deadline = Date.now() + 3000;
  const leftOver = () => grownResources(resourcesNow(before)).length > 0;
  while (Date.now() < deadline && (pids.some(alive) || leftOver())) {
    await delay(20);
  }
  return {
    rounds,
    calls,
    resolved,
    rejected,
    untyped,
    wrongResults,
    unsettled,
    faults,
    byFault,
    aliveAfter: pids.filter(alive),
    abortListenersAfter: getEventListeners(appSignal, 'abort').length,
    resources: resourcesNow(before),
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * What went wrong in a stdio soak; empty when it passed.
 * @param {StdioSoakReport} report
 * @returns {string[]}
 */
export function stdioProblems(report) {
  /** @type {string[]} */
  const found = [];
  if (report.unsettled > 0) found.push(`stdio: ${report.unsettled} calls never settled`);
  for (const fault of HARMLESS) {
    const { calls = 0, answered = 0 } = report.byFault[fault] ?? {};
    if (answered < calls)
      found.push(`stdio: ${calls - answered} of ${calls} calls not answered in rounds with fault ${fault}`);
  }
  if (report.untyped.length > 0) found.push(`stdio: untyped rejections: ${report.untyped.join('; ')}`);
  if (report.wrongResults.length > 0) found.push(`stdio: wrong results: ${report.wrongResults.slice(0, 5).join(', ')}`);
  if (report.aliveAfter.length > 0) found.push(`stdio: children still running: ${report.aliveAfter.join(', ')}`);
  if (report.abortListenersAfter > 0) found.push(`stdio: ${report.abortListenersAfter} abort listeners left`);
  found.push(...grownResources(report.resources, 'stdio: '));
  return found;
}

/**
 * @param {StdioSoakReport} r
 */
export function stdioSummary(r) {
  const kinds = formatCounts;
  return [
    `stdio soak: ${r.rounds} child processes, ${r.calls} calls in ${r.seconds.toFixed(1)} s: ${r.resolved} resolved, rejected: ${kinds(r.rejected)}, unsettled ${r.unsettled}`,
    `answered by fault: ${Object.entries(r.byFault)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([fault, { calls, answered }]) => `${fault} ${answered}/${calls}`)
      .join(', ')}`,
    `rounds by fault: ${kinds(r.faults)}; children alive after: ${r.aliveAfter.length}; abort listeners after: ${r.abortListenersAfter}; resources: ${formatResources(r.resources)}`,
  ].join('\n');
}

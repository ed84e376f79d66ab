/**
 * The workloads, run inside one client process. Two phases, each in a fresh
 * process so their memory and JIT state do not leak into each other:
 *
 * - `load`: import the client (memory after loading), the cold first connect,
 *   one warm-up call, then one 20 MB result (wall, CPU, peak RSS increase).
 * - `calls`: many connects (median), then sequential `tools/call` and 64 in
 *   flight on one connection (calls/s, latency percentiles, CPU per call).
 *
 * `--quick` runs both phases in one process (`all`), to fit its time budget.
 */
import { BIG_RESULT_BYTES } from '../servers/big-result.mjs';
import { peakRss, resetPeakRss, settle, startClock } from './probes.mjs';
import { percentile } from './stats.mjs';

const ECHO = { text: 'hello from the benchmark' };

/**
 * @typedef {object} CallsParams
 * @property {number} connects connects timed (after the process's first, untimed)
 * @property {number} warmup calls before each measured run
 * @property {number} sequential calls one after another
 * @property {number} inFlight calls outstanding at once in the concurrent run
 * @property {number} concurrent calls in the concurrent run
 * @typedef {import('../clients/adapter.mjs').Session} Session
 * @typedef {(target: import('../clients/adapter.mjs').Target) => Session} MakeSession
 */

/** @param {Session} session */
async function echo(session) {
  const content = await session.call('echo', ECHO);
  if (content[0]?.text !== ECHO.text) throw new Error(`echo answered ${JSON.stringify(content).slice(0, 200)}`);
}

/**
 * @param {import('../clients/adapter.mjs').Load} load
 * @param {import('../clients/adapter.mjs').Target} target
 */
export async function loadPhase(load, target) {
  const loading = startClock();
  const make = await load(target.kind);
  const loaded = loading();
  return { make, figures: await bigCall(make, target, loaded.wallMs) };
}

/**
 * @param {MakeSession} make
 * @param {import('../clients/adapter.mjs').Target} target
 * @param {number} loadMs
 */
async function bigCall(make, target, loadMs) {
  settle();
  const memory = process.memoryUsage();
  const session = make(target);
  const connecting = startClock();
  await session.connect();
  const connected = connecting();
  const era = session.era();
  await echo(session);
  settle();
  const rssBefore = process.memoryUsage().rss;
  const peakReset = resetPeakRss();
  const calling = startClock();
  const content = await session.call('big', {});
  const called = calling();
  const peak = peakRss();
  const length = content[0]?.text?.length;
  if (length !== BIG_RESULT_BYTES) throw new Error(`big answered ${length} characters, not ${BIG_RESULT_BYTES}`);
  await session.close();
  return {
    era,
    loadMs,
    rssAfterLoadMb: memory.rss / 2 ** 20,
    heapAfterLoadMb: memory.heapUsed / 2 ** 20,
    coldConnectMs: connected.wallMs,
    coldConnectCpuUs: connected.cpuUs,
    bigWallMs: called.wallMs,
    bigCpuMs: called.cpuUs / 1000,
    bigPeakMb: (peak - rssBefore) / 2 ** 20,
    peakReset,
  };
}

/**
 * @param {MakeSession} make
 * @param {import('../clients/adapter.mjs').Target} target
 * @param {CallsParams} params
 */
export async function calls(make, target, params) {
  const connectMs = [];
  const connectCpuUs = [];
  for (let i = 0; i <= params.connects; i++) {
    const session = make(target);
    const clock = startClock();
    await session.connect();
    const { wallMs, cpuUs } = clock();
    await session.close();
    // The first is the process's cold connect (measured in the load phase).
    if (i === 0) continue;
    connectMs.push(wallMs);
    connectCpuUs.push(cpuUs);
  }

  const session = make(target);
  await session.connect();
  for (let i = 0; i < params.warmup; i++) await echo(session);
  const sequential = await timed(params.sequential, 1, () => echo(session));
  await timed(params.warmup, params.inFlight, () => echo(session));
  const concurrent = await timed(params.concurrent, params.inFlight, () => echo(session));
  await session.close();
  return {
    era: session.era(),
    connectMs: percentile(connectMs, 50),
    connectCpuUs: percentile(connectCpuUs, 50),
    seqCallsPerS: sequential.callsPerS,
    seqP50Ms: sequential.p50,
    seqP99Ms: sequential.p99,
    seqCpuUs: sequential.cpuUs,
    parCallsPerS: concurrent.callsPerS,
    parP50Ms: concurrent.p50,
    parP99Ms: concurrent.p99,
    parCpuUs: concurrent.cpuUs,
  };
}

/**
 * Runs `total` calls with `inFlight` of them outstanding at any time.
 * @param {number} total
 * @param {number} inFlight
 * @param {() => Promise<void>} call
 */
async function timed(total, inFlight, call) {
  const latencies = new Float64Array(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      const start = performance.now();
      await call();
      latencies[index] = performance.now() - start;
    }
  };
  const clock = startClock();
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
  const { wallMs, cpuUs } = clock();
  const samples = Array.from(latencies);
  return {
    callsPerS: total / (wallMs / 1000),
    cpuUs: cpuUs / total,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
  };
}

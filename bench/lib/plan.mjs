/**
 * What one run measures: the transports (server endpoints), the clients, and
 * the workload sizes of the full and the `--quick` mode. The run repeats
 * rounds until the repetitions are done or its time budget is spent, so it
 * always finishes within the budget on a slow or busy machine.
 */

/** @typedef {'stateful' | 'stateless' | 'modern' | 'stdio'} TransportName */

/** @type {readonly TransportName[]} */
export const TRANSPORTS = ['stateful', 'stateless', 'modern', 'stdio'];

/** What each transport is, as the report names it. */
export const TRANSPORT_LABELS = {
  stateful: 'HTTP stateful (SSE responses, v1 server, 2025-11-25)',
  stateless: 'HTTP stateless (JSON responses, v1 server, 2025-11-25)',
  modern: 'HTTP 2026-07-28 (v2 createMcpHandler)',
  stdio: 'stdio (v1 server, 2025-11-25)',
};

/**
 * @typedef {object} Plan
 * @property {number} reps repetitions wanted (each figure is their median)
 * @property {number} budgetMs a new round starts only if it should end within this much time from the start
 * @property {readonly string[]} phases client processes per client, transport and round
 * @property {(transport: TransportName) => import('./workloads.mjs').CallsParams} params
 * @property {(transport: TransportName, client: string) => boolean} [measures] which clients run on a transport (default: all)
 */

/**
 * `full` (the default) and `--quick` measure everything, each figure from a
 * fresh process: a short run, in which the JIT is still warming. `--long`
 * measures warmed steady state, calls only: 2,000 warm-up calls before each
 * measured run, then 15,000 sequential calls and 40,000 with 64 in flight,
 * long enough that a second run of the same build moves each CPU figure by
 * less than 5 % (the report prints each figure's spread across rounds).
 * Over HTTP it runs the floor and @mcp only (`measures`).
 * @type {Record<'full' | 'quick' | 'long', Plan>}
 */
export const PLANS = {
  full: {
    reps: 5,
    budgetMs: 9 * 60_000,
    phases: ['load', 'calls'],
    params: (transport) => ({
      connects: transport === 'stdio' ? 5 : 15,
      warmup: 100,
      sequential: transport === 'stdio' ? 1500 : 600,
      inFlight: 64,
      concurrent: transport === 'stdio' ? 3000 : 1280,
    }),
  },
  long: {
    reps: 3,
    budgetMs: 40 * 60_000,
    phases: ['calls'],
    // No timed connects: one would be a figure of one sample, and the short run measures connects.
    params: () => ({ connects: 0, warmup: 2000, sequential: 15_000, inFlight: 64, concurrent: 40_000 }),
    // Its targets compare @mcp with the floor everywhere, and with every client only in stdio calls/s: over
    // HTTP (about 30 s a client and round) the other clients would triple the run and prove nothing asked.
    measures: (transport, client) => transport === 'stdio' || client === 'floor' || client === 'mcp',
  },
  quick: {
    reps: 2,
    budgetMs: 55_000,
    phases: ['all'],
    params: (transport) => ({
      connects: transport === 'stdio' ? 1 : 3,
      warmup: 20,
      sequential: transport === 'stdio' ? 200 : 100,
      inFlight: 64,
      concurrent: transport === 'stdio' ? 640 : 256,
    }),
  },
};

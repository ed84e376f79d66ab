/**
 * Every figure the report prints: which phase measures it, its unit, and the
 * workload table it belongs to. Ratios are always client ÷ floor, so for
 * calls/s a ratio below 1 is the slower one, and for everything else above 1 is.
 */

/**
 * @typedef {object} Metric
 * @property {string} key the field a client process reports
 * @property {string} label column heading
 * @property {number} digits decimals printed
 */

/** @type {readonly { title: string, note: string, metrics: readonly Metric[] }[]} */
export const SECTIONS = [
  {
    title: 'Sequential tools/call',
    note: 'One call at a time on one connection. CPU is the client process’s user + system time per call.',
    metrics: [
      { key: 'seqCallsPerS', label: 'calls/s', digits: 0 },
      { key: 'seqP50Ms', label: 'p50 ms', digits: 2 },
      { key: 'seqP99Ms', label: 'p99 ms', digits: 2 },
      { key: 'seqCpuUs', label: 'CPU µs/call', digits: 0 },
    ],
  },
  {
    title: '64 calls in flight',
    note: '64 calls outstanding at all times on one connection.',
    metrics: [
      { key: 'parCallsPerS', label: 'calls/s', digits: 0 },
      { key: 'parP99Ms', label: 'p99 ms', digits: 1 },
      { key: 'parCpuUs', label: 'CPU µs/call', digits: 0 },
    ],
  },
  {
    title: 'One 20 MB result',
    note: 'One `tools/call` whose result is one 20 MiB text part, after one warm-up call. Peak RSS increase: the kernel’s high-water mark (reset just before the call) minus the RSS before it.',
    metrics: [
      { key: 'bigWallMs', label: 'wall ms', digits: 0 },
      { key: 'bigCpuMs', label: 'CPU ms', digits: 0 },
      { key: 'bigPeakMb', label: 'peak RSS +MB', digits: 1 },
    ],
  },
  {
    title: 'Connect',
    note: 'Median of many connects in one process (the first excluded), and the cold first connect of a fresh process (after the import). Over stdio a connect includes starting the server process.',
    metrics: [
      { key: 'connectMs', label: 'median ms', digits: 2 },
      { key: 'connectCpuUs', label: 'median CPU µs', digits: 0 },
      { key: 'coldConnectMs', label: 'cold first ms', digits: 1 },
    ],
  },
  {
    title: 'Memory after loading the client',
    note: 'A fresh process that imported the client library for that transport, after two full GCs. The floor’s process is Node plus the benchmark harness.',
    metrics: [
      { key: 'rssAfterLoadMb', label: 'RSS MB', digits: 1 },
      { key: 'heapAfterLoadMb', label: 'heap used MB', digits: 2 },
      { key: 'loadMs', label: 'import ms', digits: 1 },
    ],
  },
];

/**
 * The targets for @mcp, as ratios to the floor.
 * @type {readonly { target: string, metric: string, limit: (transport: string) => number, transports?: readonly string[] }[]}
 */
export const TARGETS = [
  { target: 'CPU per call, sequential', metric: 'seqCpuUs', limit: (t) => (t === 'stdio' ? 1.3 : 1.15) },
  { target: 'CPU per call, 64 in flight', metric: 'parCpuUs', limit: (t) => (t === 'stdio' ? 1.3 : 1.15) },
  { target: '20 MB result, wall', metric: 'bigWallMs', limit: () => 1.2 },
  { target: '20 MB result, CPU', metric: 'bigCpuMs', limit: () => 1.2 },
  { target: '20 MB result, peak RSS increase', metric: 'bigPeakMb', limit: () => 1.2 },
  { target: 'Memory after loading (RSS)', metric: 'rssAfterLoadMb', limit: () => 1.1 },
  { target: 'Connect, median', metric: 'connectMs', limit: () => 1.2 },
  { target: 'Connect, cold first', metric: 'coldConnectMs', limit: () => 1.2 },
];

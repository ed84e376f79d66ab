/**
 * Turns the measurements of a run into the Markdown report: the targets
 * first, then one table per workload. Each cell is the median of the
 * repetitions, their min–max, and the ratio of the median to the floor's.
 */
import { CLIENTS } from '../clients/adapter.mjs';
import { SECTIONS, TARGETS } from './metrics.mjs';
import { TRANSPORT_LABELS, TRANSPORTS } from './plan.mjs';
import { summarize } from './stats.mjs';

/**
 * @typedef {{ rep: number, transport: string, client: string, phase: string, data: Record<string, unknown> }} Sample
 * @typedef {{ median: number, min: number, max: number, n: number }} Figure
 */

/** What a reader needs to know to compare the rows fairly. */
const SETUP = [
  '**floor**: legacy connect = `initialize` + `notifications/initialized` (two round trips over HTTP; over stdio the notification is a write); 2026-07-28 connect = one `server/discover`; calls carry the `_meta` envelope and `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`. No validation, no GET stream.',
  '**@mcp**: default options. `connect()` probes `server/discover` first; a legacy server answers it with an error and the handshake follows (the cold first connect to a legacy server is three round trips). The verdict is cached per HTTP URL in the process, so warm HTTP connects are two; over stdio every new transport probes again. It opens no standalone GET stream: the benchmark client has no handlers and no `onNotification`, so nothing would read it.',
  "**sdk-v2**: default options (2025 handshake) except `versionNegotiation: { mode: 'auto' }` against the 2026-07-28 server. Its stdio `maxBufferSize` is raised from 10 MiB to 64 MiB (@mcp’s default), else the 20 MB result fails.",
  '**sdk-v1**: default options; stdio `maxBufferSize` raised to 64 MiB as for sdk-v2. Speaks 2025-11-25 to the 2026-07-28 server (its stateless legacy fallback).',
  '**ai-sdk**: `createMCPClient` (connects while created); calls go through `execute` of `toolsFromDefinitions` with static definitions, so no `tools/list` is added. Speaks 2025-11-25 everywhere.',
];

/**
 * Collects the repetitions of each figure: `figures.get('stdio/mcp/seqCpuUs')`.
 * @param {readonly Sample[]} samples
 */
export function aggregate(samples) {
  /** @type {Map<string, number[]>} */
  const values = new Map();
  /** @type {Map<string, string>} */
  const eras = new Map();
  for (const { transport, client, data } of samples) {
    if (typeof data.era === 'string') eras.set(`${transport}/${client}`, data.era);
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'number') continue;
      const id = `${transport}/${client}/${key}`;
      values.set(id, [...(values.get(id) ?? []), value]);
    }
  }
  /** @type {Map<string, Figure>} */
  const figures = new Map();
  for (const [id, list] of values) figures.set(id, summarize(list));
  return { figures, eras };
}

/** @param {number} value @param {number} digits */
function num(value, digits) {
  if (!Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** @param {number} ratio */
const times = (ratio) => (Number.isFinite(ratio) ? `×${ratio.toFixed(2)}` : '×–');

/**
 * How far a figure's rounds lie apart, as a share of their median: (max − min) ÷ median.
 * @param {{ median: number, min: number, max: number }} figure
 */
const spread = ({ median, min, max }) => (median > 0 ? `${((100 * (max - min)) / median).toFixed(1)} %` : '–');

/**
 * @param {{ meta: Record<string, string>, samples: readonly Sample[], failures: readonly string[] }} run
 * @returns {string}
 */
export function renderReport({ meta, samples, failures }) {
  const { figures, eras } = aggregate(samples);
  /** @param {string} t @param {string} c @param {string} m */
  const fig = (t, c, m) => figures.get(`${t}/${c}/${m}`);
  const ratio = (/** @type {string} */ t, /** @type {string} */ c, /** @type {string} */ m) =>
    (fig(t, c, m)?.median ?? Number.NaN) / (fig(t, 'floor', m)?.median ?? Number.NaN);

  const lines = ['# @mcp client benchmark', ''];
  for (const [key, value] of Object.entries(meta)) lines.push(`- **${key}:** ${value}`);
  lines.push(
    '',
    'Every figure is the median of the repetitions, with their min–max in brackets and the ratio of the',
    'median to the floor’s (`×1.00` = as cheap as the hand-written minimal client). **On this noisy',
    '2-core machine, shared with other work, trust the client CPU per call and the memory figures;**',
    'wall-clock figures (calls/s, latencies, connect and 20 MB wall times) move with whatever else runs.',
    '',
    '## Targets for @mcp',
    '',
    '| target | transport | @mcp | floor | ratio | limit | verdict | spread of @mcp’s rounds |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const target of TARGETS) {
    for (const transport of TRANSPORTS) {
      const ours = fig(transport, 'mcp', target.metric);
      const floor = fig(transport, 'floor', target.metric);
      if (!ours || !floor) continue;
      const r = ours.median / floor.median;
      const limit = target.limit(transport);
      const verdict = !Number.isFinite(r) ? 'no data' : r <= limit ? 'met' : '**missed**';
      lines.push(
        `| ${target.target} | ${transport} | ${num(ours.median, 2)} | ${num(floor.median, 2)} | ${times(r)} | ≤ ×${limit} | ${verdict} | ${spread(ours)} |`,
      );
    }
  }
  // Over stdio, @mcp should also move at least as many calls per second at 64 in flight as every other client.
  const ours = fig('stdio', 'mcp', 'parCallsPerS');
  const others = CLIENTS.filter(
    (client) => client !== 'mcp' && client !== 'floor' && fig('stdio', client, 'parCallsPerS'),
  );
  if (ours && others.length > 0) {
    const best = others.reduce((a, b) =>
      (fig('stdio', a, 'parCallsPerS')?.median ?? 0) >= (fig('stdio', b, 'parCallsPerS')?.median ?? 0) ? a : b,
    );
    const theirs = fig('stdio', best, 'parCallsPerS')?.median ?? Number.NaN;
    const verdict = ours.median >= theirs ? 'met' : '**missed**';
    lines.push(
      `| calls/s, 64 in flight, vs every other client | stdio | ${num(ours.median, 0)} | ${best}: ${num(theirs, 0)} | ×${(ours.median / theirs).toFixed(2)} of ${best} | ≥ ×1 | ${verdict} | ${spread(ours)} |`,
    );
  }

  for (const section of SECTIONS) {
    // A run that measures only some phases (--long: calls) leaves the other sections out.
    if (!TRANSPORTS.some((t) => CLIENTS.some((c) => section.metrics.some((m) => fig(t, c, m.key))))) continue;
    lines.push('', `## ${section.title}`, '', section.note, '');
    lines.push(`| transport | client | era | ${section.metrics.map((m) => m.label).join(' | ')} |`);
    lines.push(`| --- | --- | --- | ${section.metrics.map(() => '---:').join(' | ')} |`);
    for (const transport of TRANSPORTS) {
      for (const client of CLIENTS) {
        if (!section.metrics.some((m) => fig(transport, client, m.key))) continue;
        const cells = section.metrics.map((m) => {
          const f = fig(transport, client, m.key);
          if (!f) return '–';
          const range = `(${num(f.min, m.digits)}–${num(f.max, m.digits)})`;
          return `${num(f.median, m.digits)} ${range} ${times(ratio(transport, client, m.key))}`;
        });
        const era = eras.get(`${transport}/${client}`) ?? '';
        lines.push(`| ${transport} | ${client === 'mcp' ? '**@mcp**' : client} | ${era} | ${cells.join(' | ')} |`);
      }
    }
  }

  lines.push('', '## Transports', '');
  for (const transport of TRANSPORTS) lines.push(`- **${transport}**: ${TRANSPORT_LABELS[transport]}`);
  lines.push('', '## How each client is set up', '', ...SETUP.map((note) => `- ${note}`));
  if (failures.length > 0) {
    lines.push('', '## Failures', '', ...failures.map((failure) => `- ${failure}`));
  }
  return `${lines.join('\n')}\n`;
}

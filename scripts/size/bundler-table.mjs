// The per-bundler summary `pnpm size` prints first: for each of Rollup, Vite and
// esbuild, the bytes (gzip -9, files) the minimal program loads up front and in each
// real run, then each run's slack under the ceiling. The ceiling applies to the
// largest run of any bundler.

const pad = (value, width) => String(value).padStart(width);
const cell = ({ gzip, files }) => `${gzip} in ${files}`;

/**
 * The summary's lines: a header and one line per bundler for the bytes, the same for
 * each run's slack under `ceiling` (negative when over it), then what each bundler is.
 * @param {{ name: string, about: string, bundle: { initial: import('./split-bundle.mjs').Sizes },
 *   runs: import('./real-runs.mjs').Run[] }[]} bundlers
 * @param {number} ceiling gzip bytes the largest run may load
 * @returns {string[]}
 */
export function bundlerLines(bundlers, ceiling) {
  const names = bundlers[0]?.runs.map((run) => run.name) ?? [];
  const width = Math.max(13, ...names.map((name) => name.length + 2));
  const lines = [
    `\ngzip bytes in files, by bundler${pad('initial', 10)}${names.map((name) => pad(name, width)).join('')}`,
  ];
  for (const { name, bundle, runs } of bundlers) {
    const loaded = runs.map((run) => pad(run.error === undefined ? cell(run.sizes) : 'FAILED', width));
    lines.push(`  ${name.padEnd(29)}${pad(cell(bundle.initial), 10)}${loaded.join('')}`);
  }
  lines.push(`\n${`slack under the ceiling (${ceiling})`.padEnd(41)}${names.map((name) => pad(name, width)).join('')}`);
  for (const { name, runs } of bundlers) {
    const slack = runs.map((run) => pad(run.error === undefined ? ceiling - run.sizes.gzip : 'FAILED', width));
    lines.push(`  ${name.padEnd(39)}${slack.join('')}`);
  }
  for (const { name, about } of bundlers) lines.push(`  ${name}: ${about}`);
  return lines;
}

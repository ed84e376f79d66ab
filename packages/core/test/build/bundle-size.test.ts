import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error scripts/ is plain JS without declarations
import * as sizeScript from '../../../../scripts/bundle-size.mjs';
import { requireBuilt } from './built-files.js';

/** Sizes of a set of chunks (scripts/size/split-bundle.mjs). */
interface Sizes {
  readonly files: number;
  readonly minified: number;
  readonly gzip: number;
  readonly packages: Readonly<Record<string, number>>;
}

/** One real run of the minimal program (scripts/size/real-runs.mjs). */
interface Run {
  readonly name: string;
  readonly about: string;
  readonly era: 'modern' | 'legacy' | undefined;
  readonly text: string | undefined;
  readonly methods: readonly string[];
  readonly loaded: readonly string[];
  readonly sizes: Sizes;
  readonly error: string | undefined;
}

interface Bundle {
  readonly bundler: string;
  readonly entry: string;
  readonly chunks: readonly { readonly file: string }[];
  readonly initialFiles: readonly string[];
  readonly initial: Sizes;
  readonly everything: Sizes;
}

/** One bundler's measurement: its split bundle of the minimal program and the real runs of it. */
interface Measured {
  readonly name: string;
  readonly bundle: Bundle;
  readonly runs: readonly Run[];
}

interface Measurement extends Measured {
  readonly bundlers: readonly Measured[];
}

/**
 * The size ceiling (20,000 bytes gzip for the largest run, whichever of Rollup, Vite
 * and esbuild bundles the program; `pnpm size` prints the figures): a change that
 * makes the minimal program load more than this fails here.
 */
const CEILING_GZIP: number = sizeScript.CEILING_GZIP;
const SCENARIOS: readonly { readonly name: string; readonly era: 'modern' | 'legacy' }[] = sizeScript.SCENARIOS;
const BUNDLERS: readonly string[] = ['rollup', 'vite', 'esbuild'];
const measureLoadedBytes: () => Promise<Measurement> = sizeScript.measureLoadedBytes;

/** The figures `pnpm size` prints, for a failure message that says what to cut. */
function figures({ name, bundle, runs }: Measured): string {
  const lines = runs.map(
    (run) =>
      `  ${run.name}: ${run.sizes.gzip} bytes gzip in ${run.sizes.files} chunk(s)${run.error ? ` (FAILED: ${run.error})` : ''}`,
  );
  const packages = Object.entries(bundle.initial.packages).map(([owner, bytes]) => `${owner} ${bytes}`);
  return [
    `${name}: loaded per scenario (ceiling ${CEILING_GZIP} bytes gzip -9):`,
    ...lines,
    `  initial (entry + static imports): ${bundle.initial.gzip}; everything: ${bundle.everything.gzip}`,
    `  initial minified bytes per package: ${packages.join(', ')}`,
  ].join('\n');
}

describe('bundle size of the minimal browser program', () => {
  let measured: Measurement;
  beforeAll(async () => {
    requireBuilt('packages/core/dist/index.js', 'packages/core/dist/protocol.js');
    measured = await measureLoadedBytes();
  }, 120_000);
  const byName = (name: string): Measured => {
    const found = measured.bundlers.find((bundler) => bundler.name === name);
    if (found === undefined) throw new Error(`${name} was not measured`);
    return found;
  };

  it('measures the program with Rollup, Vite and esbuild, and judges the ceiling on the largest run of any', () => {
    expect(measured.bundlers.map((bundler) => bundler.name)).toEqual(BUNDLERS);
    const largest = Math.max(...measured.bundlers.flatMap((bundler) => bundler.runs.map((run) => run.sizes.gzip)));
    expect(Math.max(...measured.runs.map((run) => run.sizes.gzip))).toBe(largest);
  });

  it.each(BUNDLERS)(
    `loads at most ${CEILING_GZIP} bytes gzip, every dependency included, in every scenario (%s)`,
    (name) => {
      const bundler = byName(name);
      const over = bundler.runs
        .filter((run) => run.error !== undefined || run.sizes.gzip > CEILING_GZIP)
        .map((run) => run.name);
      expect(over, figures(bundler)).toEqual([]);
    },
  );

  it.each(BUNDLERS)('makes the same few chunks: the program and one shared core up front (%s)', (name) => {
    const { bundle } = byName(name);
    expect(bundle.initialFiles, figures(byName(name))).toHaveLength(2);
    // One chunk per on-demand feature, named for it (the app's bundler keeps our file names as chunk names).
    for (const feature of [
      'answering',
      'catalogue',
      'event-stream',
      'output-validation',
      'recovery',
      'legacy-sse-session',
    ]) {
      const chunks = bundle.chunks.filter((chunk) => chunk.file.startsWith(`${feature}-`));
      expect(
        chunks.map((chunk) => chunk.file),
        feature,
      ).toHaveLength(1);
    }
  });

  it.each(BUNDLERS)(
    'measures real runs: each succeeds, speaks the expected era and loads the entry and its static imports (%s)',
    (name) => {
      const { bundle, runs } = byName(name);
      const files = bundle.chunks.map((chunk) => chunk.file);
      expect(runs.map((run) => run.name)).toEqual(SCENARIOS.map((scenario) => scenario.name));
      for (const [index, run] of runs.entries()) {
        const context = `${name} ${run.name}: ${run.error ?? 'ok'}`;
        expect(run.error, context).toBeUndefined();
        expect(run.text, context).toMatch(/\S/);
        expect(run.era, context).toBe(SCENARIOS[index]?.era);
        expect(run.methods, context).toContain('tools/call');
        expect(run.loaded, context).toContain(bundle.entry);
        expect(run.loaded, context).toEqual(expect.arrayContaining([...bundle.initialFiles]));
        expect(files, context).toEqual(expect.arrayContaining([...run.loaded]));
        expect(run.sizes.gzip, context).toBeGreaterThanOrEqual(bundle.initial.gzip);
      }
    },
  );

  it.each(BUNDLERS)(
    'never loads the output validator: every server lists a tool with an outputSchema (add), the program calls echo (%s)',
    (name) => {
      const { bundle, runs } = byName(name);
      const validator = (file: string) => file.startsWith('output-validation-');
      expect(bundle.chunks.map((chunk) => chunk.file).filter(validator)).toHaveLength(1);
      for (const run of runs) expect(run.loaded.filter(validator), run.name).toEqual([]);
    },
  );
});

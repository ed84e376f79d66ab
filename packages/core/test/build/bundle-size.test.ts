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

interface Measurement {
  readonly bundle: {
    readonly entry: string;
    readonly chunks: readonly { readonly file: string }[];
    readonly initialFiles: readonly string[];
    readonly initial: Sizes;
    readonly everything: Sizes;
  };
  readonly runs: readonly Run[];
}

/**
 * The size ceiling (20,000 bytes gzip for the largest run; `pnpm size` prints the
 * figures): a change that makes the minimal program load more than this fails here.
 */
const CEILING_GZIP: number = sizeScript.CEILING_GZIP;
const SCENARIOS: readonly { readonly name: string; readonly era: 'modern' | 'legacy' }[] = sizeScript.SCENARIOS;
const measureLoadedBytes: () => Promise<Measurement> = sizeScript.measureLoadedBytes;

/** The figures `pnpm size` prints, for a failure message that says what to cut. */
function figures({ bundle, runs }: Measurement): string {
  const lines = runs.map(
    (run) =>
      `  ${run.name}: ${run.sizes.gzip} bytes gzip in ${run.sizes.files} chunk(s)${run.error ? ` (FAILED: ${run.error})` : ''}`,
  );
  const packages = Object.entries(bundle.initial.packages).map(([name, bytes]) => `${name} ${bytes}`);
  return [
    `loaded per scenario (ceiling ${CEILING_GZIP} bytes gzip -9):`,
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
  }, 60_000);

  it(`loads at most ${CEILING_GZIP} bytes gzip, every dependency included, in every scenario`, () => {
    const over = measured.runs
      .filter((run) => run.error !== undefined || run.sizes.gzip > CEILING_GZIP)
      .map((run) => run.name);
    expect(over, figures(measured)).toEqual([]);
  });

  it('measures real runs: each succeeds, speaks the expected era and loads the entry and its static imports', () => {
    const files = measured.bundle.chunks.map((chunk) => chunk.file);
    expect(measured.runs.map((run) => run.name)).toEqual(SCENARIOS.map((scenario) => scenario.name));
    for (const [index, run] of measured.runs.entries()) {
      const context = `${run.name}: ${run.error ?? 'ok'}`;
      expect(run.error, context).toBeUndefined();
      expect(run.text, context).toMatch(/\S/);
      expect(run.era, context).toBe(SCENARIOS[index]?.era);
      expect(run.methods, context).toContain('tools/call');
      expect(run.loaded, context).toContain(measured.bundle.entry);
      expect(run.loaded, context).toEqual(expect.arrayContaining([...measured.bundle.initialFiles]));
      expect(files, context).toEqual(expect.arrayContaining([...run.loaded]));
      expect(run.sizes.gzip, context).toBeGreaterThanOrEqual(measured.bundle.initial.gzip);
    }
  });

  it('never loads the output validator: every server lists a tool with an outputSchema (add), the program calls echo', () => {
    const validator = (file: string) => file.startsWith('output-validation-');
    expect(measured.bundle.chunks.map((chunk) => chunk.file).filter(validator)).toHaveLength(1);
    for (const run of measured.runs) expect(run.loaded.filter(validator), run.name).toEqual([]);
  });
});

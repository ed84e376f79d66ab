import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error scripts/ is plain JS without declarations
import * as sizeScript from '../../../../scripts/bundle-size.mjs';

// The app layer's size: a component that calls `useMcp` under an <McpProvider>
// (scripts/size/app.tsx), bundled by Rollup, Vite and esbuild with `react` left to
// the app, sized by what loads before it renders (gzip -9 of each file, summed).

interface Sizes {
  readonly files: number;
  readonly gzip: number;
  readonly packages: Readonly<Record<string, number>>;
}

interface Measured {
  readonly name: string;
  readonly bundle: {
    readonly chunks: readonly { readonly file: string; readonly contents: Uint8Array }[];
    readonly initialFiles: readonly string[];
    readonly initial: Sizes;
  };
}

const APP_CEILING_GZIP: number = sizeScript.APP_CEILING_GZIP;
const APP_CEILING_ENFORCED: boolean = sizeScript.APP_CEILING_ENFORCED;
const measureAppLayer: () => Promise<{ bundlers: readonly Measured[]; largest: Measured }> = sizeScript.measureAppLayer;
const BUNDLERS = ['rollup', 'vite', 'esbuild'];

/** The code a page loads before the component renders, as one string. */
function initialCode({ bundle }: Measured): string {
  const decoder = new TextDecoder();
  return bundle.chunks
    .filter((chunk) => bundle.initialFiles.includes(chunk.file))
    .map((chunk) => decoder.decode(chunk.contents))
    .join('\n');
}

const figures = ({ name, bundle }: Measured): string =>
  `${name}: ${bundle.initial.gzip} bytes gzip in ${bundle.initial.files} file(s) up front (ceiling ${APP_CEILING_GZIP}); ` +
  Object.entries(bundle.initial.packages)
    .map(([owner, bytes]) => `${owner} ${bytes}`)
    .join(', ');

describe('bundle size of a component that calls useMcp', () => {
  let measured: { bundlers: readonly Measured[]; largest: Measured };
  beforeAll(async () => {
    measured = await measureAppLayer();
  }, 120_000);
  const byName = (name: string): Measured => {
    const found = measured.bundlers.find((bundler) => bundler.name === name);
    if (found === undefined) throw new Error(`${name} was not measured`);
    return found;
  };

  it.each(BUNDLERS)('loads @mcp/react and @mcp/core up front, and leaves react to the app (%s)', (name) => {
    const bundler = byName(name);
    const { packages } = bundler.bundle.initial;
    expect(Object.keys(packages), figures(bundler)).toEqual(expect.arrayContaining(['@mcp/react', '@mcp/core']));
    expect(
      Object.keys(packages).filter((owner) => owner.startsWith('react')),
      figures(bundler),
    ).toEqual([]);
    expect(initialCode(bundler)).toContain('useSyncExternalStore');
  });

  it.each(BUNDLERS)('loads OAuth only on demand: the component has a server without it (%s)', (name) => {
    const bundler = byName(name);
    // OAuth discovery's well-known path: in the provider's code, which a config with `oauth: true` loads.
    expect(initialCode(bundler)).not.toContain('oauth-protected-resource');
    const everything = bundler.bundle.chunks.map((chunk) => new TextDecoder().decode(chunk.contents)).join('\n');
    expect(everything).toContain('oauth-protected-resource');
  });

  it.each(BUNDLERS)('leaves out the server-side stores, which nothing of the component reaches (%s)', (name) => {
    // RedisStore's fenced write, a Lua script sent to Redis.
    expect(initialCode(byName(name))).not.toContain('redis.call');
  });

  it(
    APP_CEILING_ENFORCED
      ? `loads at most ${APP_CEILING_GZIP} bytes gzip up front, with any bundler`
      : `reports the figure over ${APP_CEILING_GZIP} bytes gzip up front until it is met (then APP_CEILING_ENFORCED turns on)`,
    () => {
      const largest = measured.largest.bundle.initial.gzip;
      expect(largest).toBe(Math.max(...measured.bundlers.map((bundler) => bundler.bundle.initial.gzip)));
      if (APP_CEILING_ENFORCED) expect(largest, figures(measured.largest)).toBeLessThanOrEqual(APP_CEILING_GZIP);
      // Not enforced while over: once under, this fails so the ceiling is turned on and holds from then.
      else expect(largest, `${figures(measured.largest)}: set APP_CEILING_ENFORCED`).toBeGreaterThan(APP_CEILING_GZIP);
    },
  );
});

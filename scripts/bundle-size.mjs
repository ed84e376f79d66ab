#!/usr/bin/env node
// `npm run size`: what a minimal browser program pays for @mcp/core, gzipped, and
// which package each byte comes from. Import `measureBundle()` to assert a budget.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const repo = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The published entry points, as an app's bundler would resolve them after install. */
const entries = {
  '@mcp/core': repo('packages/core/dist/index.js'),
  '@mcp/core/protocol': repo('packages/core/dist/protocol.js'),
};

/** Points `@mcp/core` imports at the built package; its own dependencies resolve from packages/core. */
const workspacePackages = {
  name: 'workspace-packages',
  setup(b) {
    b.onResolve({ filter: /^@mcp\/core(\/protocol)?$/ }, ({ path }) => ({ path: entries[path] }));
  },
};

/** The package an esbuild input path belongs to: `valibot`, `@scope/name`, or `@mcp/core` for our dist. */
function packageOf(input) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (match) return match[1];
  if (input.startsWith('packages/core/')) return '@mcp/core';
  return '(program)';
}

/**
 * Bundles `program` for the browser (minified ESM) and returns its sizes:
 * `minified` and `gzip` (zlib level 9) bytes of the whole output, and `packages`,
 * the minified bytes each package contributes, largest first.
 */
export async function measureBundle(program = repo('scripts/size/minimal.ts'), { nodePaths = [] } = {}) {
  for (const file of Object.values(entries)) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first`);
  }
  const result = await build({
    entryPoints: [program],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: repo(''),
    nodePaths,
    plugins: [workspacePackages],
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  const packages = {};
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    packages[name] = (packages[name] ?? 0) + bytesInOutput;
  }
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    packages: Object.fromEntries(Object.entries(packages).sort(([, a], [, b]) => b - a)),
  };
}

/** The budget for the minimal program, every dependency included. */
export const BUDGET_GZIP = 14_000;

/** The same program on the official v2 client, resolved from the benchmark's dependencies. */
export const measureOfficialV2 = () =>
  measureBundle(repo('scripts/size/official-v2.ts'), { nodePaths: [repo('bench/node_modules')] });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const print = (label, { minified, gzip, packages }) => {
    console.log(`${label}: ${gzip} bytes gzip -9 (${minified} bytes minified)`);
    for (const [name, bytes] of Object.entries(packages)) console.log(`  ${String(bytes).padStart(7)}  ${name}`);
  };
  const ours = await measureBundle();
  print('@mcp/core minimal browser program (connect over Streamable HTTP, list tools, call one)', ours);
  const verdict = ours.gzip <= BUDGET_GZIP ? 'within' : 'OVER';
  console.log(
    `budget: ${BUDGET_GZIP} bytes gzip -9: ${verdict} (${ours.gzip - BUDGET_GZIP >= 0 ? '+' : ''}${ours.gzip - BUDGET_GZIP})`,
  );
  try {
    const official = await measureOfficialV2();
    print('\nthe same program on @modelcontextprotocol/client v2', official);
    console.log(`@mcp/core is ${((ours.gzip / official.gzip) * 100).toFixed(0)}% of the official client's size`);
  } catch (error) {
    console.log(`\n(official v2 client not measured: ${error.message.split('\n')[0]}; run pnpm install)`);
  }
}

import { nodeResolve } from '@rollup/plugin-node-resolve';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

const input = {
  index: 'src/index.ts',
  protocol: 'src/protocol/index.ts',
  browser: 'src/browser/index.ts',
  skills: 'src/skills/index.ts',
  transport: 'src/transport/index.ts',
};
const external = (id) => /^(valibot|eventsource-parser|ofetch|@cfworker\/json-schema)(\/|$)/.test(id);

/**
 * For the Node build: everything the main entry imports statically goes in one
 * chunk (the subpaths import what they share with it from there, so `instanceof`
 * holds across them); what the Client loads on demand, and what only a subpath
 * needs, keep chunks of their own.
 */
function oneStaticChunk(id, { getModuleInfo }) {
  oneStaticChunk.reachable ??= staticallyReachable(getModuleInfo);
  return oneStaticChunk.reachable.has(id) ? 'core' : undefined;
}

function staticallyReachable(getModuleInfo) {
  const seen = new Set();
  const visit = (id) => {
    const info = getModuleInfo(id);
    if (!info || seen.has(id) || info.isExternal) return;
    seen.add(id);
    for (const next of info.importedIds) visit(next);
  };
  visit(new URL(input.index, import.meta.url).pathname);
  return seen;
}

export default [
  // The published build: dependencies stay external so bundlers dedupe them.
  {
    input,
    external,
    plugins: [esbuild({ target: 'es2022' })],
    // One output file per source module: an app's bundler then sees our real module
    // graph, drops what it does not use, and splits what the Client loads on demand
    // (server-request handlers, subscriptions, …) into chunks of its own. Merged
    // chunks would drag those features into whatever chunk an app loads first.
    output: {
      dir: 'dist',
      format: 'esm',
      sourcemap: true,
      preserveModules: true,
      preserveModulesRoot: 'src',
      entryFileNames: (chunk) => (chunk.isEntry ? '[name].js' : 'lib/[name].js'),
    },
  },
  // The build Node (and Deno, Bun) load directly, unbundled: few files, as loading
  // a hundred small modules costs a process memory and start-up time. Features
  // the Client loads on demand still get chunks of their own.
  {
    input,
    external,
    plugins: [esbuild({ target: 'es2022' })],
    output: {
      dir: 'dist/node',
      format: 'esm',
      sourcemap: true,
      chunkFileNames: 'chunks/[name]-[hash].js',
      hoistTransitiveImports: false,
      manualChunks: oneStaticChunk,
    },
  },
  // One self-contained file for runtimes without a resolver (browser pages, workerd, Deno, Bun tests).
  {
    input: 'src/index.ts',
    plugins: [
      nodeResolve({ browser: true, exportConditions: ['browser', 'worker', 'import', 'default'] }),
      esbuild({ target: 'es2022', minify: true }),
    ],
    // Features the Client loads on demand are inlined: this file must stand alone.
    output: { file: 'dist/core.bundle.js', format: 'esm', inlineDynamicImports: true },
  },
  {
    input,
    external,
    // stripInternal: members marked `@internal` (what the Client calls on a
    // Subscription) stay off the published types.
    plugins: [dts({ compilerOptions: { stripInternal: true } })],
    output: { dir: 'dist', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];

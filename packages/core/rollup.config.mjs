import { nodeResolve } from '@rollup/plugin-node-resolve';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';
import { chunkByFeature, modulesUsedBy } from './build/chunk-by-feature.mjs';
import { inlineScriptInto } from './build/inline-script.mjs';
import { declarationStubs, noBundlerExtras } from './build/no-bundler-extras.mjs';
import { pureCalls } from './build/pure-calls.mjs';

const input = {
  index: 'src/index.ts',
  protocol: 'src/protocol/index.ts',
  browser: 'src/browser/index.ts',
  skills: 'src/skills/index.ts',
  transport: 'src/transport/index.ts',
  connections: 'src/connections/index.ts',
  apps: 'src/apps/index.ts',
};
const external = (id) => /^(valibot|eventsource-parser|ofetch|@cfworker\/json-schema)(\/|$)/.test(id);
const typescript = () => esbuild({ target: 'es2022' });

/**
 * What every program with a Client loads up front: the Client and the transports of
 * the main entry, tree-shaken. The shared `core` is cut around it (chunk-by-feature.mjs).
 */
const used = await modulesUsedBy(['Client', 'MemoryTransport', 'StreamableHttpTransport'], input.index, {
  external,
  plugins: [typescript(), pureCalls()],
});

export default [
  // The published build, for bundlers and for Node, Deno and Bun alike: one file per
  // entry, one shared `core`, one file per feature the Client loads on demand (few
  // shared ones between them). Whatever an app bundles it with (Rollup, Vite's
  // Rolldown, esbuild), each file stays whole, so every bundler makes the same few
  // chunks; dependencies stay external so the app's bundler dedupes them.
  {
    input,
    external,
    plugins: [typescript(), pureCalls()],
    output: {
      dir: 'dist',
      format: 'esm',
      sourcemap: true,
      chunkFileNames: 'chunks/[name]-[hash].js',
      hoistTransitiveImports: false,
      manualChunks: chunkByFeature(input.index, used),
    },
  },
  // The no-bundler build (`@mcp/core/bundle`, `@mcp/core/bundle/browser`, …): the same
  // files with every dependency inlined and minified, for pages and runtimes that load
  // ES modules by URL or path. The entries share one `core`, so an error class is the
  // same class whichever entry it came through; features still load on demand.
  {
    input,
    plugins: [
      nodeResolve({ browser: true, exportConditions: ['browser', 'worker', 'import', 'default'] }),
      esbuild({ target: 'es2022', minify: true }),
      noBundlerExtras(),
    ],
    output: {
      dir: 'dist/bundle',
      format: 'esm',
      chunkFileNames: 'chunks/[name]-[hash].js',
      hoistTransitiveImports: false,
      manualChunks: chunkByFeature(input.index, used),
    },
  },
  {
    input,
    external,
    // stripInternal: members marked `@internal` (what the Client calls on a
    // Subscription) stay off the published types.
    plugins: [dts({ compilerOptions: { stripInternal: true } })],
    output: { dir: 'dist', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
  // The no-bundler build's declarations, dependencies' types included: a page or Deno
  // program without npm has no valibot to resolve them from.
  {
    input,
    external: () => false,
    plugins: [dts({ respectExternal: true, compilerOptions: { stripInternal: true } }), declarationStubs()],
    // The valibot types two entries share live in a chunk under private names. A program
    // reaches them through ours; only one emitting declarations of its own that infer a
    // valibot type would need a public name, and the npm build (real valibot) serves it.
    onwarn: (warning, warn) => {
      if (!/private shared type exports/.test(warning.message)) warn(warning);
    },
    output: { dir: 'dist/bundle', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
  // The MCP Apps sandbox proxy (`@mcp/core/apps/sandbox-proxy.html`): one static page
  // an app hosts on another origin, its script and valibot inlined, nothing to load.
  {
    input: 'src/apps/sandbox-proxy.ts',
    plugins: [
      nodeResolve({ browser: true }),
      esbuild({ target: 'es2022', minify: true }),
      inlineScriptInto('src/apps/sandbox-proxy.html', 'sandbox-proxy.html'),
    ],
    output: { dir: 'dist/apps', format: 'iife' },
  },
];

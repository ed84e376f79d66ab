import { nodeResolve } from '@rollup/plugin-node-resolve';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

const input = {
  index: 'src/index.ts',
  protocol: 'src/protocol/index.ts',
  browser: 'src/browser/index.ts',
  skills: 'src/skills/index.ts',
};
const external = (id) => /^(valibot|eventsource-parser)(\/|$)/.test(id);

export default [
  // The published build: dependencies stay external so bundlers dedupe them.
  {
    input,
    external,
    plugins: [esbuild({ target: 'es2022' })],
    // No bare imports of transitive chunks: with sideEffects: false, bundlers warn about each one.
    output: {
      dir: 'dist',
      format: 'esm',
      sourcemap: true,
      chunkFileNames: 'chunks/[name]-[hash].js',
      hoistTransitiveImports: false,
    },
  },
  // One self-contained file for runtimes without a resolver (browser pages, workerd, Deno, Bun tests).
  {
    input: 'src/index.ts',
    plugins: [
      nodeResolve({ browser: true, exportConditions: ['browser', 'worker', 'import', 'default'] }),
      esbuild({ target: 'es2022', minify: true }),
    ],
    output: { file: 'dist/core.bundle.js', format: 'esm' },
  },
  {
    input,
    external,
    plugins: [dts()],
    output: { dir: 'dist', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];

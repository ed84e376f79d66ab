import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

/** `react` is the app's own copy (a peer); @mcp/core is a peer the app shares. */
const external = (id) => /^react(\/|$)/.test(id) || /^@mcp\/core(\/|$)/.test(id);

export default [
  {
    input: 'src/index.ts',
    external,
    plugins: [esbuild({ target: 'es2022' })],
    // Every export is a hook or a component that uses them: the whole entry is client code. React Server
    // Components bundlers (Next.js App Router) read the directive at the top of the file; a directive in a
    // source module would be dropped by the bundling, so it goes on the output.
    output: { file: 'dist/index.js', format: 'esm', sourcemap: true, banner: "'use client';" },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ compilerOptions: { paths: {} } })],
    output: { file: 'dist/index.d.ts', format: 'esm' },
  },
];

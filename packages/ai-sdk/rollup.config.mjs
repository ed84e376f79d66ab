import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

/** `ai` is the app's own copy (a peer); @mcp/core is a dependency the app shares. */
const external = (id) => id === 'ai' || id.startsWith('ai/') || /^@mcp\/core(\/|$)/.test(id);

export default [
  {
    input: 'src/index.ts',
    external,
    plugins: [esbuild({ target: 'es2022' })],
    output: { file: 'dist/index.js', format: 'esm', sourcemap: true },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ compilerOptions: { paths: {} } })],
    output: { file: 'dist/index.d.ts', format: 'esm' },
  },
];

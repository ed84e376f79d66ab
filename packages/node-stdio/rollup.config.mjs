import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

const external = (id) => id.startsWith('node:') || /^@mcp\/core(\/|$)/.test(id);

export default [
  {
    input: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
    external,
    plugins: [esbuild({ target: 'es2022', platform: 'node' })],
    output: { dir: 'dist', format: 'esm', sourcemap: true, chunkFileNames: 'chunks/[name]-[hash].js' },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ compilerOptions: { paths: {} } })],
    output: { file: 'dist/index.d.ts', format: 'esm' },
  },
];

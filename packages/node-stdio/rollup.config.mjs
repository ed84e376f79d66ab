import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

/** Makes the `mcp` bin runnable straight from dist (package managers do this on install, git does not). */
const executableCli = {
  name: 'executable-cli',
  async writeBundle(options, bundle) {
    if (bundle['cli.js']) await chmod(join(options.dir ?? 'dist', 'cli.js'), 0o755);
  },
};

const external = (id) => id.startsWith('node:') || /^@mcp\/core(\/|$)/.test(id);

export default [
  // The library and the `mcp` bin are built apart, each one file: a program that
  // imports the library loads a single module (every extra module file costs a
  // Node process memory), and the bin's copy of the transport is its own.
  {
    input: 'src/index.ts',
    external,
    plugins: [esbuild({ target: 'es2022', platform: 'node' })],
    output: { file: 'dist/index.js', format: 'esm', sourcemap: true },
  },
  {
    input: 'src/cli/main.ts',
    external,
    plugins: [esbuild({ target: 'es2022', platform: 'node' }), executableCli],
    // dist/cli.js is the `mcp` bin; npm and pnpm run it directly.
    output: { file: 'dist/cli.js', format: 'esm', sourcemap: true, banner: '#!/usr/bin/env node' },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ compilerOptions: { paths: {} } })],
    output: { file: 'dist/index.d.ts', format: 'esm' },
  },
];

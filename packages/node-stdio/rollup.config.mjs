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
  {
    input: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
    external,
    plugins: [esbuild({ target: 'es2022', platform: 'node' }), executableCli],
    output: {
      dir: 'dist',
      format: 'esm',
      sourcemap: true,
      chunkFileNames: 'chunks/[name]-[hash].js',
      // dist/cli.js is the `mcp` bin; npm and pnpm run it directly.
      banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
    },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ compilerOptions: { paths: {} } })],
    output: { file: 'dist/index.d.ts', format: 'esm' },
  },
];

// What the no-bundler build adds to Rollup's output. Each entry names its types in a
// first-line comment, which is how Deno finds them (TypeScript finds the .d.ts beside
// it). And `dist/core.bundle.js`, the build's first name, kept for pages and programs
// that import it by path: it forwards to `bundle/index.js`, so it shares that build's
// one copy of core with `bundle/browser.js` and the other entries.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const FORWARDS = {
  'core.bundle.js': '// @ts-self-types="./bundle/index.d.ts"\nexport * from \'./bundle/index.js\';\n',
  'core.bundle.d.ts': "export * from './bundle/index.js';\n",
};

/**
 * A Rollup plugin for the no-bundler build, placed after the minifier (which would drop
 * the comment): names each entry's types, and writes the forwarding files beside the
 * output directory.
 */
export function noBundlerExtras() {
  return {
    name: 'no-bundler-extras',
    renderChunk: (code, chunk) => (chunk.isEntry ? `// @ts-self-types="./${chunk.name}.d.ts"\n${code}` : null),
    async writeBundle({ dir }) {
      if (dir === undefined) throw new Error('the no-bundler build writes to a directory');
      const parent = dirname(dir);
      await mkdir(parent, { recursive: true });
      for (const [file, text] of Object.entries(FORWARDS)) await writeFile(join(parent, file), text);
    },
  };
}

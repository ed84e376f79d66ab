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

/**
 * A Rollup plugin for the no-bundler build's declarations. They import their shared
 * chunks as `./chunks/<name>.js`, as TypeScript wants, but no such script exists and
 * Deno, unlike TypeScript, looks for no `.d.ts` in its place: a one-line stub per
 * declaration chunk names the `.d.ts` the way the entries do. Nothing loads a stub.
 */
export function declarationStubs() {
  return {
    name: 'declaration-stubs',
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || chunk.isEntry) continue;
        const name = chunk.fileName.split('/').pop();
        this.emitFile({
          type: 'asset',
          fileName: chunk.fileName.replace(/\.d\.ts$/, '.js'),
          source: `// @ts-self-types="./${name}"\nexport {};\n`,
        });
      }
    },
  };
}

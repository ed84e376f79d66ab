// Bundles a program the way a browser app's production build would (Rollup, as
// Vite does, split at every dynamic `import()`, minified by esbuild), and sizes
// each output file: what a page downloads is the entry plus the chunks it
// actually asks for.
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nodeResolve from '@rollup/plugin-node-resolve';
import { build, transform } from 'esbuild';
import { rollup } from 'rollup';
import esbuildPlugin from 'rollup-plugin-esbuild';

/** Absolute path of a file in the repository. */
export const repo = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The published entry points, as an app's bundler would resolve them after install. */
const entries = {
  '@mcp/core': repo('packages/core/dist/index.js'),
  '@mcp/core/protocol': repo('packages/core/dist/protocol.js'),
};

const distDir = repo('packages/core/dist/');

/** Points `@mcp/core` imports at the built package; its own dependencies resolve from packages/core. */
const workspacePackages = {
  name: 'workspace-packages',
  setup(b) {
    b.onResolve({ filter: /^@mcp\/core(\/protocol)?$/ }, ({ path }) => ({ path: entries[path] }));
  },
};

/** The package an esbuild input path belongs to: `valibot`, `@scope/name`, or `@mcp/core` for our dist. */
function packageOf(input) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (match) return match[1];
  if (input.startsWith('packages/core/')) return '@mcp/core';
  return '(program)';
}

/**
 * @typedef {object} Chunk one output file
 * @property {string} file its name in the output directory
 * @property {Uint8Array} contents the minified code
 * @property {number} minified bytes
 * @property {number} gzip bytes at zlib level 9, the file compressed on its own as a server sends it
 * @property {boolean} entry whether it is the program's entry
 * @property {string[]} imports the chunks it imports statically (loaded with it)
 * @property {string[]} dynamicImports the chunks it may `import()` later
 * @property {Record<string, number>} packages minified bytes per package in this file
 */

/**
 * @typedef {object} Bundle
 * @property {string} entry the entry chunk's file name
 * @property {Chunk[]} chunks every output file, the entry first
 */

/**
 * Bundles `program` for the browser: minified ESM, split into chunks at every
 * dynamic `import()` by Rollup (which keeps code the entry already loaded in the
 * entry, as Vite's production build does). `splitting: false` gives one esbuild
 * file with every dynamic import inlined (the official client's comparison).
 * Nothing is written; each chunk carries its contents.
 * @returns {Promise<Bundle>}
 */
export async function bundleProgram(program, { nodePaths = [], splitting = true } = {}) {
  for (const file of Object.values(entries)) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first`);
  }
  return splitting ? rollupBundle(program) : esbuildBundle(program, nodePaths);
}

/** The package a module id belongs to: `valibot`, `@scope/name`, or `@mcp/core` for our dist. */
function packageOfModule(id) {
  const match = id.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (match) return match[1];
  if (id.startsWith(repo('packages/core/'))) return '@mcp/core';
  return '(program)';
}

async function rollupBundle(program) {
  const bundle = await rollup({
    input: program,
    plugins: [
      // As installed from the registry: the package's `"sideEffects": false` applies to every file of it.
      {
        name: 'workspace-packages',
        resolveId: (id) => (entries[id] ? { id: entries[id], moduleSideEffects: false } : null),
        load: (id) => (id.startsWith(distDir) ? { code: readFileSync(id, 'utf8'), moduleSideEffects: false } : null),
      },
      nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] }),
      esbuildPlugin({ target: 'es2022', include: /\.ts$/ }),
    ],
    onwarn: (warning, warn) => {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  const { output } = await bundle.generate({ format: 'esm', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
  const chunks = [];
  for (const item of output) {
    if (item.type !== 'chunk') continue;
    const { code } = await transform(item.code, { minify: true, format: 'esm', target: 'es2022' });
    const contents = new TextEncoder().encode(code);
    // Each module minified on its own, for the per-package table; the chunk is minified whole.
    const packages = {};
    for (const [id, module] of Object.entries(item.modules)) {
      if (!module.code) continue;
      const minified = (await transform(module.code, { minify: true, target: 'es2022' })).code.length;
      const owner = packageOfModule(id);
      packages[owner] = (packages[owner] ?? 0) + minified;
    }
    chunks.push({
      file: item.fileName,
      contents,
      minified: contents.byteLength,
      gzip: gzipSync(contents, { level: 9 }).byteLength,
      entry: item.isEntry,
      imports: item.imports,
      dynamicImports: item.dynamicImports,
      packages,
    });
  }
  return finish(chunks, program);
}

async function esbuildBundle(program, nodePaths) {
  const root = repo('');
  const outdir = resolve(root, '.size-out');
  const result = await build({
    entryPoints: [program],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
    nodePaths,
    plugins: [workspacePackages],
  });
  const [file] = result.outputFiles;
  const [meta] = Object.values(result.metafile.outputs);
  const packages = {};
  for (const [input, { bytesInOutput }] of Object.entries(meta.inputs)) {
    const owner = packageOf(input);
    packages[owner] = (packages[owner] ?? 0) + bytesInOutput;
  }
  const chunk = {
    file: basename(file.path),
    contents: file.contents,
    minified: file.contents.byteLength,
    gzip: gzipSync(file.contents, { level: 9 }).byteLength,
    entry: true,
    imports: [],
    dynamicImports: [],
    packages,
  };
  return finish([chunk], program);
}

function finish(chunks, program) {
  chunks.sort((a, b) => Number(b.entry) - Number(a.entry) || b.gzip - a.gzip);
  const entry = chunks.find((chunk) => chunk.entry);
  if (entry === undefined) throw new Error(`no entry chunk for ${program}`);
  return { entry: entry.file, chunks };
}

/** The entry and every chunk it imports statically, transitively: what loads before the program runs a line. */
export function initialChunks(bundle) {
  const byFile = new Map(bundle.chunks.map((chunk) => [chunk.file, chunk]));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
  };
  visit(bundle.entry);
  return [...seen];
}

/**
 * @typedef {object} Sizes
 * @property {number} files how many chunks
 * @property {number} minified bytes, summed
 * @property {number} gzip bytes, each file gzipped on its own, summed
 * @property {Record<string, number>} packages minified bytes per package, largest first
 */

/**
 * The sizes of the chunks named in `files` (all of them when omitted).
 * @returns {Sizes}
 */
export function sizeOf(bundle, files = bundle.chunks.map((chunk) => chunk.file)) {
  const chosen = bundle.chunks.filter((chunk) => files.includes(chunk.file));
  const packages = {};
  for (const chunk of chosen) {
    for (const [owner, bytes] of Object.entries(chunk.packages)) packages[owner] = (packages[owner] ?? 0) + bytes;
  }
  return {
    files: chosen.length,
    minified: chosen.reduce((sum, chunk) => sum + chunk.minified, 0),
    gzip: chosen.reduce((sum, chunk) => sum + chunk.gzip, 0),
    packages: Object.fromEntries(Object.entries(packages).sort(([, a], [, b]) => b - a)),
  };
}

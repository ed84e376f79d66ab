// Bundles a program the way a browser app's production build would (split at every
// dynamic `import()`, minified; bundlers.mjs has the three bundlers), and sizes each
// output file: what a page downloads is the entry plus the chunks it actually asks for.
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BUNDLERS, esbuildBundle, repo, resolveOurs } from './bundlers.mjs';

export { BUNDLERS, repo };

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
 * @property {string} bundler the name of the bundler that made it (a key of BUNDLERS), or `esbuild-one-file`
 * @property {string} entry the entry chunk's file name
 * @property {Chunk[]} chunks every output file, the entry first
 */

/**
 * Bundles `program` for the browser with `bundler` (a key of BUNDLERS), split into
 * chunks at every dynamic `import()`. `splitting: false` gives one esbuild file with
 * every dynamic import inlined, resolving packages from `nodePaths` (the official
 * client's comparison). Nothing is written; each chunk carries its contents.
 * @returns {Promise<Bundle>}
 */
export async function bundleProgram(program, { bundler = 'rollup', nodePaths = [], splitting = true } = {}) {
  for (const specifier of ['@mcp/core', '@mcp/core/protocol', '@mcp/react']) {
    const file = resolveOurs(specifier);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first`);
  }
  if (!splitting) return finish('esbuild-one-file', await esbuildBundle(program, { splitting, nodePaths }), program);
  const chosen = BUNDLERS[bundler];
  if (chosen === undefined) throw new Error(`unknown bundler ${bundler}: one of ${Object.keys(BUNDLERS).join(', ')}`);
  return finish(bundler, await chosen.bundle(program), program);
}

/** @param {import('./bundlers.mjs').RawChunk[]} raw */
function finish(bundler, raw, program) {
  const chunks = raw.map(({ code, ...chunk }) => {
    const contents = typeof code === 'string' ? new TextEncoder().encode(code) : code;
    const gzip = gzipSync(contents, { level: 9 }).byteLength;
    return { ...chunk, contents, minified: contents.byteLength, gzip };
  });
  chunks.sort((a, b) => Number(b.entry) - Number(a.entry) || b.gzip - a.gzip);
  const entry = chunks.find((chunk) => chunk.entry);
  if (entry === undefined) throw new Error(`${bundler}: no entry chunk for ${program}`);
  return { bundler, entry: entry.file, chunks };
}

/**
 * The entry and every chunk it imports statically, transitively: what loads before the
 * program runs a line. An external (`react`, the app's own) is not ours to count.
 */
export function initialChunks(bundle) {
  const byFile = new Map(bundle.chunks.map((chunk) => [chunk.file, chunk]));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !byFile.has(file)) return;
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

// The three ways an app's production build bundles a program, each split at every
// dynamic `import()` and minified: Rollup 4 (as Vite built before version 8), Vite 8
// (Rolldown, its Oxc minifier) and esbuild (`--bundle --splitting --format=esm
// --minify`). Each resolves `@mcp/core` and `@mcp/react` through the built packages'
// exports maps, as after an install, leaves `react` to the app (a peer: the page has
// it already), and returns the output files as raw chunks for split-bundle.mjs to
// size. Nothing is written to disk.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeResolve from '@rollup/plugin-node-resolve';
import { build as esbuild, version as esbuildVersion, transform } from 'esbuild';
import { rollup, VERSION as rollupVersion } from 'rollup';
import esbuildPlugin from 'rollup-plugin-esbuild';
import { build as vite, version as viteVersion } from 'vite';

/** Absolute path of a file in the repository. */
export const repo = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Our packages a program may import, by name: their folders under packages/. */
const OURS = { '@mcp/core': 'core', '@mcp/react': 'react' };
const distDirs = Object.values(OURS).map((folder) => repo(`packages/${folder}/dist/`));

/** The app's own: a peer of @mcp/react, loaded by the page whether or not it uses MCP. */
const isReact = (id) => /^react(\/|$)/.test(id);

/**
 * Where `@mcp/core`, `@mcp/react` or one's `/<subpath>` points for a browser app: the
 * `browser` or `default` target of the package's exports map. Undefined for other specifiers.
 */
export function resolveOurs(specifier) {
  const match = specifier.match(/^(@mcp\/(?:core|react))(\/[\w./-]+)?$/);
  if (!match) return undefined;
  const dir = repo(`packages/${OURS[match[1]]}/`);
  const { exports } = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
  const target = exports[`.${match[2] ?? ''}`];
  const file = typeof target === 'string' ? target : (target?.browser ?? target?.default);
  if (typeof file !== 'string') throw new Error(`${match[1]} exports no ${specifier} for a browser`);
  return fileURLToPath(new URL(file, `file://${dir}`));
}

/** The package a bundled module belongs to: `valibot`, `@scope/name`, `@mcp/core` or `@mcp/react` for our dist, or the program. */
export function packageOf(id) {
  const match = id.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (match) return match[1];
  for (const [name, folder] of Object.entries(OURS)) if (id.includes(`packages/${folder}/`)) return name;
  return '(program)';
}

/**
 * @typedef {object} RawChunk one output file, before sizing
 * @property {string} file its name, no directory
 * @property {string | Uint8Array} code the minified code
 * @property {boolean} entry whether it is the program's entry
 * @property {string[]} imports the chunks it imports statically (loaded with it)
 * @property {string[]} dynamicImports the chunks it may `import()` later
 * @property {Record<string, number>} packages minified bytes per package in this file
 */

/** Minified bytes per package of a Rollup or Rolldown chunk: each module's rendered code minified on its own. */
async function packagesOfModules(modules) {
  const packages = {};
  for (const [id, module] of Object.entries(modules)) {
    if (!module.code) continue;
    const minified = (await transform(module.code, { minify: true, target: 'es2022' })).code.length;
    const owner = packageOf(id);
    packages[owner] = (packages[owner] ?? 0) + minified;
  }
  return packages;
}

/**
 * Rollup 4, split at dynamic imports; each chunk then minified by esbuild. Rollup keeps
 * code the entry already loaded in the entry, as Vite's production build did up to 7.
 * @returns {Promise<RawChunk[]>}
 */
async function rollupSplit(program) {
  const bundle = await rollup({
    input: program,
    plugins: [
      // As installed from the registry: the package's `"sideEffects": false` applies to every file of it.
      {
        name: 'workspace-packages',
        resolveId: (id) => {
          const file = resolveOurs(id);
          return file === undefined ? null : { id: file, moduleSideEffects: false };
        },
        load: (id) =>
          distDirs.some((dir) => id.startsWith(dir))
            ? { code: readFileSync(id, 'utf8'), moduleSideEffects: false }
            : null,
      },
      nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] }),
      esbuildPlugin({ target: 'es2022', include: /\.tsx?$/, jsx: 'automatic' }),
    ],
    external: isReact,
    onwarn: (warning, warn) => {
      // `'use client'` heads @mcp/react for React Server Components bundlers; an app's bundler drops it.
      if (warning.code !== 'CIRCULAR_DEPENDENCY' && warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
    },
  });
  const { output } = await bundle.generate({ format: 'esm', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
  const chunks = [];
  for (const item of output) {
    if (item.type !== 'chunk') continue;
    const { code } = await transform(item.code, { minify: true, format: 'esm', target: 'es2022' });
    chunks.push({
      file: item.fileName,
      code,
      entry: item.isEntry,
      imports: item.imports,
      dynamicImports: item.dynamicImports,
      packages: await packagesOfModules(item.modules),
    });
  }
  return chunks;
}

/**
 * A Vite 8 production build (Rolldown, minified by Oxc) with the program as its input.
 * Two settings differ from an app's: the entry keeps its exports (an app's entry has
 * none; here `run` is how the measurement calls the program), and no module-preload
 * helper, which needs a `document` and belongs to Vite, not to @mcp/core.
 * @returns {Promise<RawChunk[]>}
 */
async function viteSplit(program) {
  const result = await vite({
    configFile: false,
    root: repo('scripts/size'),
    logLevel: 'silent',
    mode: 'production',
    plugins: [
      {
        name: 'workspace-packages',
        enforce: 'pre',
        resolveId: (id) => {
          const file = resolveOurs(id);
          return file === undefined ? null : { id: file, moduleSideEffects: false };
        },
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: {
        input: program,
        external: isReact,
        preserveEntrySignatures: 'strict',
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
  const [{ output }] = Array.isArray(result) ? result : [result];
  const chunks = [];
  for (const item of output) {
    if (item.type !== 'chunk') continue;
    chunks.push({
      file: item.fileName,
      code: item.code,
      entry: item.isEntry,
      imports: item.imports,
      dynamicImports: item.dynamicImports,
      packages: await packagesOfModules(item.modules),
    });
  }
  return chunks;
}

/**
 * esbuild `--bundle --splitting --format=esm --minify` for the browser. With
 * `splitting: false`, one file with every dynamic import inlined (the official
 * client's comparison), resolving packages from `nodePaths`.
 * @returns {Promise<RawChunk[]>}
 */
export async function esbuildBundle(program, { splitting = true, nodePaths = [] } = {}) {
  const root = repo('');
  const result = await esbuild({
    entryPoints: [program],
    bundle: true,
    splitting,
    minify: true,
    format: 'esm',
    platform: 'browser',
    outdir: repo('.size-out'),
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
    nodePaths,
    jsx: 'automatic',
    external: ['react', 'react/*'],
    plugins: [
      {
        name: 'workspace-packages',
        setup(build) {
          // As installed from the registry: the package's `"sideEffects": false` covers its entries too.
          build.onResolve({ filter: /^@mcp\/(core|react)(\/|$)/ }, ({ path }) => ({
            path: resolveOurs(path),
            sideEffects: false,
          }));
        },
      },
    ],
  });
  const contents = new Map(result.outputFiles.map((file) => [basename(file.path), file.contents]));
  const chunks = [];
  for (const [path, meta] of Object.entries(result.metafile.outputs)) {
    if (!path.endsWith('.js')) continue;
    const packages = {};
    for (const [input, { bytesInOutput }] of Object.entries(meta.inputs)) {
      const owner = packageOf(input);
      packages[owner] = (packages[owner] ?? 0) + bytesInOutput;
    }
    const linked = (kind) => meta.imports.filter((link) => link.kind === kind).map((link) => basename(link.path));
    chunks.push({
      file: basename(path),
      code: contents.get(basename(path)),
      entry: meta.entryPoint !== undefined && repo(meta.entryPoint) === program,
      imports: linked('import-statement'),
      dynamicImports: linked('dynamic-import'),
      packages,
    });
  }
  return chunks;
}

/** The bundlers every split measurement runs, by name, in the order `pnpm size` prints them. */
export const BUNDLERS = {
  rollup: { about: `Rollup ${rollupVersion}, split at import(), minified by esbuild`, bundle: rollupSplit },
  vite: { about: `Vite ${viteVersion} production build (Rolldown, Oxc minifier)`, bundle: viteSplit },
  esbuild: {
    about: `esbuild ${esbuildVersion} --bundle --splitting --format=esm --minify`,
    bundle: (program) => esbuildBundle(program),
  },
};

// How the published build is cut into files: one per entry, one `core`, one per feature
// the Client loads on demand, and a few shared between those. An app's bundler never
// splits a file, and each of ours is reached from the same places whichever bundler
// reads it, so Rollup, Vite (Rolldown) and esbuild all make the same few chunks from it.
// Given one file per source module instead, Rolldown and esbuild cut the shared code
// around every on-demand boundary into chunks of its own, which an app then loads up
// front as a dozen more files and a few thousand more bytes.
import { basename, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';

const PROGRAM = '\0core-program.js';
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The source modules whose code a program importing `names` from `entry` loads up
 * front, as Rollup tree-shakes it (the package has no side effects) with the
 * on-demand features left behind their `import()`.
 * @param {string[]} names exports of `entry`
 * @param {string} entry relative to packages/core
 * @param {{ external: (id: string) => boolean, plugins: import('rollup').Plugin[] }} options
 * @returns {Promise<Set<string>>}
 */
export async function modulesUsedBy(names, entry, { external, plugins }) {
  const program = `export { ${names.join(', ')} } from ${JSON.stringify(`${root}${entry}`)};`;
  const bundle = await rollup({
    input: PROGRAM,
    external,
    treeshake: { moduleSideEffects: false },
    plugins: [
      {
        name: 'core-program',
        resolveId: (id) => (id === PROGRAM ? id : null),
        load: (id) => (id === PROGRAM ? program : null),
      },
      ...plugins,
    ],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  const chunks = new Map(output.map((chunk) => [chunk.fileName, chunk]));
  const used = new Set();
  const load = (file) => {
    const chunk = chunks.get(file);
    if (chunk?.type !== 'chunk' || chunk.isDynamicEntry) return;
    chunks.delete(file);
    for (const [id, module] of Object.entries(chunk.modules)) if (module.renderedLength > 0) used.add(id);
    for (const next of chunk.imports) load(next);
  };
  load(output[0].fileName);
  return used;
}

/**
 * A Rollup `manualChunks`. `core` holds what the main entry reaches statically, except
 * code the programs of `used` (modulesUsedBy) never run while an on-demand feature
 * does: that code, and whatever imports it, goes with the feature, so a program loads
 * it only when the feature loads. Every import between our files then points from a
 * feature or subpath towards `core`, never back, so no two files import each other.
 *
 * Outside `core`, a module goes to the feature loaded whenever any of its users is
 * (the feature itself, or one the others import) unless an entry exports it, to
 * `shared-<features>` when several share it otherwise (`shared-<features>-<subpaths>`
 * when subpath entries reach it too), and to its folder's name (`auth`) when only
 * entries reach it. Every module is named, so Rollup never pulls
 * one into a chunk that imports it.
 * @param {string} entry the main entry, relative to packages/core
 * @param {Set<string>} used what the programs `core` is for load up front
 */
export function chunkByFeature(entry, used) {
  const entryId = `${root}${entry}`;
  /** @type {Map<string, string> | undefined} */
  let assigned;
  return (id, api) => {
    assigned ??= assign(entryId, used, api);
    return assigned.get(id);
  };
}

function assign(entryId, used, { getModuleIds, getModuleInfo }) {
  const closures = new Map();
  /** Every module `start` imports statically, transitively, itself included. */
  const closure = (start) => {
    let seen = closures.get(start);
    if (seen !== undefined) return seen;
    seen = new Set();
    const visit = (id) => {
      const info = getModuleInfo(id);
      if (!info || info.isExternal || seen.has(id)) return;
      seen.add(id);
      for (const next of info.importedIds) visit(next);
    };
    visit(start);
    closures.set(start, seen);
    return seen;
  };
  const ids = [...getModuleIds()];
  const features = [...new Set(ids.flatMap((id) => getModuleInfo(id)?.dynamicallyImportedIds ?? []))];
  const usersOf = (id) => features.filter((feature) => closure(feature).has(id));
  const reexportsOnly = (id) => getModuleInfo(id)?.ast?.body.every(isReexport) ?? false;
  // What the programs of `core` run, and what that code imports (bundlers keep a static
  // import of dead code only if they cannot prove it dead, but it must resolve).
  // A subclass (an error class) is kept by esbuild in any app whose entry re-exports it,
  // since evaluating its superclass might throw: cheapest in `core`, with no file of its own.
  const kept = [...closure(entryId)].filter((id) => getModuleInfo(id)?.ast?.body.some(declaresSubclass));
  const run = new Set([...used, ...kept].flatMap((id) => [...closure(id)]));
  const forFeatures = new Set([...closure(entryId)].filter((id) => !run.has(id) && usersOf(id).length > 0));
  const imports = (id) => [...closure(id)].some((dependency) => forFeatures.has(dependency));
  const exported = new Set(ids.filter((id) => getModuleInfo(id)?.isEntry).flatMap((id) => [...closure(id)]));
  const subpathEntries = ids.filter((id) => id !== entryId && getModuleInfo(id)?.isEntry);
  const chunks = new Map();
  const isEntry = (id) => getModuleInfo(id)?.isEntry === true;
  for (const id of closure(entryId)) {
    if (!isEntry(id) && (run.has(id) || reexportsOnly(id) || !imports(id))) chunks.set(id, 'core');
  }
  for (const id of ids) {
    if (chunks.has(id) || isEntry(id) || getModuleInfo(id)?.isExternal) continue;
    const users = usersOf(id);
    if (users.length === 0) {
      // Only entries reach it: a subpath's own module stays in its entry (Rollup's
      // choice); what the main entry exports goes to a chunk named for its folder.
      if (closure(entryId).has(id)) chunks.set(id, relative(`${root}src`, id).split('/')[0] ?? 'core');
      continue;
    }
    const owner = exported.has(id)
      ? undefined
      : users.find((feature) => users.every((user) => closure(user).has(feature)));
    if (owner !== undefined) {
      chunks.set(id, featureName(owner));
      continue;
    }
    // Apart by the subpaths that reach it too: esbuild loads up front every file an entry reaches
    // (used or not) that holds code a feature runs, so a subpath must reach only its own share.
    const subpaths = subpathEntries.filter((entry) => closure(entry).has(id)).map(entryName);
    chunks.set(id, `shared-${[...users.map(featureName).sort(), ...subpaths.sort()].join('-')}`);
  }
  return chunks;
}

/** `export … from`, `export * from`, `import` and directives only: a module that holds no code. */
function isReexport(statement) {
  if (statement.type === 'ImportDeclaration' || statement.type === 'ExportAllDeclaration') return true;
  if (statement.type === 'ExpressionStatement') return typeof statement.directive === 'string';
  return statement.type === 'ExportNamedDeclaration' && statement.declaration === null;
}

/** `export class A extends B {}`, `class A extends B {}` or `const A = class extends B {}`. */
function declaresSubclass(statement) {
  const declared = statement.type.startsWith('Export') ? statement.declaration : statement;
  if (!declared) return false;
  if (declared.type === 'ClassDeclaration') return declared.superClass !== null;
  if (declared.type !== 'VariableDeclaration') return false;
  return declared.declarations.some((it) => it.init?.type === 'ClassExpression' && it.init.superClass !== null);
}

/** `src/connections/index.ts` is `connections`, `src/browser/index.ts` is `browser`. */
function entryName(id) {
  return basename(dirname(id));
}

/** `client/answering/index.ts` is `answering`; `transport/http/legacy-sse-session.ts` is `legacy-sse-session`. */
function featureName(id) {
  const file = basename(id).replace(/\.[cm]?[jt]s$/, '');
  return file === 'index' ? basename(dirname(id)) : file;
}

// How the published build is cut into files: one per entry, one `core` with everything
// the main entry reaches statically, one per feature the Client loads on demand. An
// app's bundler never splits a file, and each of ours is reached from the same places
// whichever bundler reads it, so Rollup, Vite (Rolldown) and esbuild all make the same
// few chunks from it. Given one file per source module instead, Rolldown and esbuild
// cut the shared code around every on-demand boundary into chunks of its own, which an
// app then loads up front as a dozen more files and a few thousand more bytes.
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A Rollup `manualChunks`: `core` for every module `entry` reaches statically; the
 * on-demand feature's name for a module only on-demand code reaches, when one feature
 * is loaded whenever any of its users is (the feature itself, or one the others
 * import) and no subpath entry exports it; `shared-<features>` for the rest.
 * Every module is named, so Rollup never pulls one into a chunk that imports it.
 * @param {string} entry the main entry, relative to packages/core
 */
export function chunkByFeature(entry) {
  const entryId = fileURLToPath(new URL(`../${entry}`, import.meta.url));
  /** @type {Map<string, string> | undefined} */
  let assigned;
  return (id, api) => {
    assigned ??= assign(entryId, api);
    return assigned.get(id);
  };
}

function assign(entryId, { getModuleIds, getModuleInfo }) {
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
  // What a subpath entry exports must not make it load a whole feature up front.
  const exported = new Set(ids.filter((id) => getModuleInfo(id)?.isEntry).flatMap((id) => [...closure(id)]));
  const chunks = new Map();
  for (const id of closure(entryId)) chunks.set(id, 'core');
  for (const id of ids) {
    if (chunks.has(id)) continue;
    const users = features.filter((feature) => closure(feature).has(id));
    if (users.length === 0) continue; // only a subpath entry needs it: Rollup keeps it there
    const owner = exported.has(id)
      ? undefined
      : users.find((feature) => users.every((user) => closure(user).has(feature)));
    chunks.set(id, owner === undefined ? `shared-${users.map(featureName).sort().join('-')}` : featureName(owner));
  }
  return chunks;
}

/** `client/answering/index.ts` is `answering`; `client/result-cache.ts` is `result-cache`. */
function featureName(id) {
  const file = basename(id).replace(/\.[cm]?[jt]s$/, '');
  return file === 'index' ? basename(dirname(id)) : file;
}

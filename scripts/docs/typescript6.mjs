/**
 * A module hook (registered by scripts/docs.mjs) that hands `import 'typescript'` the TypeScript 6
 * compiler (@typescript/typescript6, which wraps typescript@6.0.3). typedoc needs TypeScript's JS
 * compiler API, and the repo's TypeScript 7 is the native compiler, which has none. typedoc's
 * `typescript` is a peer dependency, so pnpm links it to the root's 7.0.2; neither a pnpm override
 * nor a packageExtension reaches a peer (both tried), hence the hook.
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'typescript')
    return nextResolve('@typescript/typescript6', { ...context, parentURL: import.meta.url });
  return nextResolve(specifier, context);
}

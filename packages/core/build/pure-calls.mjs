// A function declared `/* @__NO_SIDE_EFFECTS__ */` (valibot's schema and action
// factories, our `lazy`) may be dropped by a bundler when nothing uses its result.
// Rollup and Rolldown follow that mark across files; esbuild only within the file that
// declares the function, so an app bundled by esbuild kept every schema of ours its
// program never used (about 900 bytes gzip of the minimal program), and each top-level
// `lazy()` made it load the file holding it. This plugin writes the same promise where
// esbuild reads it: `/* @__PURE__ */` before each call of such a function in our
// output. It marks nothing the function's own declaration does not.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import MagicString from 'magic-string';

const PURE = '/* @__PURE__ */ ';
const MARKED = /@__NO_SIDE_EFFECTS__\s*\*\/\s*(?:export\s+)?function\s+(\w+)/g;

/** The functions a module's source declares free of side effects. */
function marked(path) {
  return new Set([...readFileSync(path, 'utf8').matchAll(MARKED)].map(([, name]) => name));
}

/** Every node of an ESTree AST, depth first. */
function* nodes(node) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) yield* nodes(child);
    return;
  }
  if (typeof node.type === 'string') yield node;
  for (const [key, value] of Object.entries(node)) if (key !== 'type' && typeof value === 'object') yield* nodes(value);
}

/**
 * A Rollup plugin, placed after the TypeScript transform: marks pure each call of a
 * function that valibot, or the source file it is imported from, declares free of
 * side effects.
 */
export function pureCalls() {
  const valibot = marked(fileURLToPath(import.meta.resolve('valibot')));
  if (valibot.size === 0) throw new Error('found no @__NO_SIDE_EFFECTS__ function in valibot: has its build changed?');
  const sources = new Map();
  /** What `specifier`, imported by the module `importer`, declares free of side effects. */
  const markedIn = (specifier, importer) => {
    if (specifier === 'valibot') return valibot;
    if (!specifier.startsWith('.')) return new Set();
    const path = resolve(dirname(importer), specifier).replace(/\.js$/, '.ts');
    if (!sources.has(path)) sources.set(path, existsSync(path) ? marked(path) : new Set());
    return sources.get(path);
  };
  return {
    name: 'pure-calls',
    transform(code, id) {
      if (!code.includes('import')) return null;
      const ast = this.parse(code);
      const namespaces = new Map();
      const functions = new Set();
      for (const statement of ast.body) {
        if (statement.type !== 'ImportDeclaration') continue;
        const pure = markedIn(statement.source.value, id);
        if (pure.size === 0) continue;
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportNamespaceSpecifier') namespaces.set(specifier.local.name, pure);
          else if (specifier.type === 'ImportSpecifier' && pure.has(specifier.imported.name))
            functions.add(specifier.local.name);
        }
      }
      if (namespaces.size === 0 && functions.size === 0) return null;
      const edited = new MagicString(code);
      for (const node of nodes(ast)) {
        if (node.type !== 'CallExpression') continue;
        const { callee } = node;
        const isMarked =
          (callee.type === 'Identifier' && functions.has(callee.name)) ||
          (callee.type === 'MemberExpression' &&
            !callee.computed &&
            callee.object.type === 'Identifier' &&
            namespaces.get(callee.object.name)?.has(callee.property.name));
        if (isMarked) edited.appendLeft(node.start, PURE);
      }
      if (!edited.hasChanged()) return null;
      return { code: edited.toString(), map: edited.generateMap({ hires: 'boundary', source: id }) };
    },
  };
}

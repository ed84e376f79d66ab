// valibot marks its schema and action factories `@__NO_SIDE_EFFECTS__`, so a bundler
// may drop a call whose result nothing uses. Rollup and Rolldown follow that mark
// from valibot into our files; esbuild follows it only within the file that declares
// the function, so an app bundled by esbuild kept every schema of ours its program
// never used (about 900 bytes gzip of the minimal program). This plugin writes the
// same promise where esbuild reads it: `/* @__PURE__ */` before each call of such a
// factory in our output. It marks nothing valibot itself does not.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import MagicString from 'magic-string';

const PURE = '/* @__PURE__ */ ';

/** The functions valibot declares free of side effects, read from its ES module build. */
function noSideEffectFunctions() {
  const source = readFileSync(fileURLToPath(import.meta.resolve('valibot')), 'utf8');
  const names = new Set();
  for (const [, name] of source.matchAll(/@__NO_SIDE_EFFECTS__\s*\*\/\s*(?:export\s+)?function\s+(\w+)/g))
    names.add(name);
  if (names.size === 0) throw new Error('found no @__NO_SIDE_EFFECTS__ function in valibot: has its build changed?');
  return names;
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

/** A Rollup plugin, placed after the TypeScript transform: marks calls of valibot's side-effect-free factories pure. */
export function pureValibotCalls() {
  const pure = noSideEffectFunctions();
  return {
    name: 'pure-valibot-calls',
    transform(code, id) {
      if (!code.includes('valibot')) return null;
      const ast = this.parse(code);
      const namespaces = new Set();
      const functions = new Set();
      for (const statement of ast.body) {
        if (statement.type !== 'ImportDeclaration' || statement.source.value !== 'valibot') continue;
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportNamespaceSpecifier') namespaces.add(specifier.local.name);
          else if (specifier.type === 'ImportSpecifier' && pure.has(specifier.imported.name))
            functions.add(specifier.local.name);
        }
      }
      const edited = new MagicString(code);
      for (const node of nodes(ast)) {
        if (node.type !== 'CallExpression') continue;
        const { callee } = node;
        const marked =
          (callee.type === 'Identifier' && functions.has(callee.name)) ||
          (callee.type === 'MemberExpression' &&
            !callee.computed &&
            callee.object.type === 'Identifier' &&
            namespaces.has(callee.object.name) &&
            pure.has(callee.property.name));
        if (marked) edited.appendLeft(node.start, PURE);
      }
      if (!edited.hasChanged()) return null;
      return { code: edited.toString(), map: edited.generateMap({ hires: 'boundary', source: id }) };
    },
  };
}

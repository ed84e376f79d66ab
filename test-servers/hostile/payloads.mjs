/**
 * The bad inputs themselves, as JSON text, shared by the HTTP and stdio
 * servers: deep and wide values, and keys that name `Object.prototype`.
 * Built as strings, because `JSON.stringify` of a real `__proto__` key would
 * drop it and of a 100,000-deep value would overflow this process's stack.
 */

/** Nesting depth of `deepJson`: far past any recursive walk's stack. */
export const DEEP_LEVELS = 100_000;

/** Parts in `wideContent`: each tiny, the count is the attack. */
export const WIDE_PARTS = 100_000;

/** `[[[…"bottom"…]]]`, `levels` arrays deep. */
export function deepJson(levels = DEEP_LEVELS) {
  return `${'['.repeat(levels)}"bottom"${']'.repeat(levels)}`;
}

/** A tool result whose `structuredContent` and `_meta` are `levels` deep. */
export function deepResult(levels = DEEP_LEVELS) {
  const deep = deepJson(levels);
  return `{"content":[{"type":"text","text":"deep"}],"structuredContent":{"value":${deep}},"_meta":{"deep":${deep}}}`;
}

/** A tool result of `parts` one-character text parts. */
export function wideResult(parts = WIDE_PARTS) {
  const part = '{"type":"text","text":"w"}';
  return `{"content":[${new Array(parts).fill(part).join(',')}]}`;
}

/**
 * A tool result carrying `__proto__`, `constructor` and `prototype` keys at
 * every level a client might copy or merge: the result, `_meta`,
 * `structuredContent`, a content part and its annotations. An inherited
 * `isError: true` would turn the result into a failure if it were merged
 * with `Object.assign` or a naive deep merge.
 */
export function protoResult() {
  const poison = '{"polluted":"yes","isError":true,"toString":"owned"}';
  return `{"__proto__":${poison},"constructor":{"prototype":${poison}},"_meta":{"__proto__":${poison}},"content":[{"type":"text","text":"proto","__proto__":${poison},"annotations":{"__proto__":${poison},"priority":0.5}}],"structuredContent":{"__proto__":${poison},"constructor":{"prototype":${poison}},"prototype":${poison},"kept":1}}`;
}

/** A tool definition whose schema and annotations carry the same keys. */
export function protoTool() {
  const poison = '{"polluted":"yes","type":"string"}';
  return `{"name":"proto-tool","__proto__":${poison},"annotations":{"__proto__":{"destructiveHint":false,"polluted":"yes"}},"inputSchema":{"type":"object","__proto__":${poison},"properties":{"__proto__":${poison},"constructor":{"type":"string"}}}}`;
}

/**
 * An input schema of `levels` nested `not` blocks beside one valid
 * `x-mcp-header` (so a client reads the annotations at all): a walk that visits
 * a single-schema keyword twice does 2^levels work (minutes at 40).
 */
export function deepNotSchema(levels) {
  let schema = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { not: schema };
  return { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, deep: schema } };
}

/** An input schema with `count` properties, the first with an `x-mcp-header`: wide rather than deep. */
export function wideSchema(count) {
  const properties = { region: { type: 'string', 'x-mcp-header': 'Region' } };
  for (let index = 0; index < count; index++) properties[`p${index}`] = { type: 'string' };
  return { type: 'object', properties };
}

/** Ids no client ever sent: every JSON-RPC id type, and names of `Object.prototype` members. */
export function strayIds(count) {
  const special = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 2 ** 53, -1, 0, '', 1.5];
  return Array.from({ length: count }, (_, index) =>
    index < special.length ? special[index] : index % 2 ? 900_000_000 + index : `stray-${index}`,
  );
}

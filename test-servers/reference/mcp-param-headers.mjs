/**
 * `x-mcp-header` declarations and `Mcp-Param-*` values (2026-07-28,
 * basic/transports § Streamable HTTP, "Custom headers from tool parameters").
 * Pure functions, used by `header-echo` and by the `/v2` HTTP check.
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
const SENTINEL = /^=\?base64\?(.*)\?=$/;

/**
 * @typedef {object} HeaderDeclaration
 * @property {string[]} path property names from the schema root
 * @property {string} name the header name after `Mcp-Param-`
 * @property {string} type `string`, `integer` or `boolean`
 */

/**
 * The declarations of a tool's JSON input schema, when every one is valid:
 * reached through `properties` only, on a string/integer/boolean property, an
 * RFC 9110 token, unique case-insensitively. Undefined when any is invalid
 * (a conforming client drops such a tool, so the server checks nothing).
 * Only `properties` chains are walked: an annotation elsewhere is not seen.
 * @param {any} schema
 * @returns {HeaderDeclaration[] | undefined}
 */
export function headerDeclarations(schema) {
  /** @type {HeaderDeclaration[]} */
  const found = [];
  const seen = new Set();
  /** @type {(node: any, path: string[]) => boolean} */
  const visit = (node, path) => {
    const name = node?.['x-mcp-header'];
    if (name !== undefined) {
      if (typeof name !== 'string' || !TOKEN.test(name) || !HEADER_TYPES.has(node.type)) return false;
      if (seen.has(name.toLowerCase())) return false;
      seen.add(name.toLowerCase());
      found.push({ path, name, type: node.type });
    }
    for (const [key, child] of Object.entries(node?.properties ?? {})) if (!visit(child, [...path, key])) return false;
    return true;
  };
  return visit(schema, []) ? found : undefined;
}

/**
 * A header value as sent, decoded when it uses the Base64 sentinel
 * `=?base64?…?=`; undefined when the sentinel's payload is not valid Base64 UTF-8.
 * @param {string} raw
 * @returns {string | undefined}
 */
export function decodeParamValue(raw) {
  const match = SENTINEL.exec(raw);
  if (match === null) return raw;
  const payload = match[1] ?? '';
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The first disagreement between the `Mcp-Param-*` headers and the call's
 * arguments, or undefined. A value present in the arguments (not null) needs
 * its header, decoding to the same value (integers compared as numbers); an
 * absent value needs nothing, and a header sent anyway is ignored.
 * @param {HeaderDeclaration[]} declarations
 * @param {unknown} args
 * @param {Headers} headers
 * @returns {{ header: string, problem: string } | undefined}
 */
export function paramHeaderMismatch(declarations, args, headers) {
  for (const { path, name, type } of declarations) {
    const value = path.reduce((/** @type {any} */ at, key) => at?.[key], args);
    if (value === undefined || value === null) continue;
    const header = `Mcp-Param-${name}`;
    const raw = headers.get(header);
    if (raw === null) return { header, problem: `missing, but the arguments carry ${JSON.stringify(value)}` };
    const decoded = decodeParamValue(raw);
    if (decoded === undefined) return { header, problem: 'invalid Base64 sentinel value' };
    const same =
      type === 'integer' && typeof value === 'number'
        ? /^-?\d+(\.\d+)?$/.test(decoded) && Number(decoded) === value
        : decoded === String(value);
    if (!same) return { header, problem: `${JSON.stringify(decoded)} disagrees with ${JSON.stringify(value)}` };
  }
  return undefined;
}

import { binaryResourceBytes, toBase64 } from './fixtures.mjs';
import { RESOURCE_NOT_FOUND, rpcError } from './rpc-errors.mjs';

/** How many text and how many binary static resources there are. */
const PER_KIND = 6;

const TEXT_PREFIX = 'test://static/text/';
const BINARY_PREFIX = 'test://static/binary/';
const TEMPLATE_PREFIX = 'test://template/';
const OCTET_STREAM = 'application/octet-stream';

/**
 * The 12 static resources, texts 1–6 then binaries 1–6: the `resources/list`
 * order. Twelve at five per page makes three pages, the last one short.
 */
export const staticResources = Object.freeze([
  ...numbers().map((n) => ({
    uri: `${TEXT_PREFIX}${n}`,
    name: `text-${n}`,
    title: `Text resource ${n}`,
    description: `Plain text "Resource ${n}"`,
    mimeType: 'text/plain',
    size: `Resource ${n}`.length,
  })),
  ...numbers().map((n) => ({
    uri: `${BINARY_PREFIX}${n}`,
    name: `binary-${n}`,
    title: `Binary resource ${n}`,
    description: `Eight bytes ${n}..${n + 7}`,
    mimeType: OCTET_STREAM,
    size: 8,
  })),
]);

/** The one resource template; `{id}` completes from {@link TEMPLATE_IDS}. */
export const itemTemplate = Object.freeze({
  uriTemplate: 'test://template/{id}',
  name: 'item',
  title: 'Item',
  description: 'Any id; reads as the text "Item <id>".',
  mimeType: 'text/plain',
});

/** Values `completion/complete` offers for the template's `id`. */
export const TEMPLATE_IDS = Object.freeze(['alpha', 'alpha2', 'beta', 'gamma']);

/**
 * The contents entry of a static resource, as `resources/read` and embedded
 * resources carry it; undefined for a URI that is not one of the 12.
 * @param {string} uri
 * @returns {{ uri: string, mimeType: string, text: string } | { uri: string, mimeType: string, blob: string } | undefined}
 */
export function staticResourceContents(uri) {
  const text = indexAfter(uri, TEXT_PREFIX);
  if (text !== undefined) return { uri, mimeType: 'text/plain', text: `Resource ${text}` };
  const binary = indexAfter(uri, BINARY_PREFIX);
  if (binary !== undefined) return { uri, mimeType: OCTET_STREAM, blob: toBase64(binaryResourceBytes(binary)) };
  return undefined;
}

/**
 * The id a template URI names, decoded; undefined if `uri` is not `test://template/<id>`.
 * @param {string} uri
 * @returns {string | undefined}
 */
export function templateId(uri) {
  if (!uri.startsWith(TEMPLATE_PREFIX)) return undefined;
  const raw = uri.slice(TEMPLATE_PREFIX.length);
  if (raw === '' || raw.includes('/')) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The `resources/read` result for any static or template URI.
 * @param {string} uri
 * @returns {{ contents: Record<string, string>[] }}
 * @throws an error with code -32002 for an unknown URI (2025-11-25, server/resources § Error Handling)
 */
export function readResource(uri) {
  const contents = staticResourceContents(uri);
  if (contents) return { contents: [contents] };
  const id = templateId(uri);
  if (id !== undefined) return { contents: [{ uri, mimeType: 'text/plain', text: `Item ${id}` }] };
  throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

/**
 * Whether `uri` names a readable resource; subscribing to anything else fails.
 * @param {string} uri
 */
export function resourceExists(uri) {
  return staticResourceContents(uri) !== undefined || templateId(uri) !== undefined;
}

/** @returns {number[]} */
function numbers() {
  return Array.from({ length: PER_KIND }, (_, i) => i + 1);
}

/**
 * @param {string} uri
 * @param {string} prefix
 * @returns {number | undefined}
 */
function indexAfter(uri, prefix) {
  if (!uri.startsWith(prefix)) return undefined;
  const n = Number(uri.slice(prefix.length));
  return Number.isInteger(n) && n >= 1 && n <= PER_KIND && uri === `${prefix}${n}` ? n : undefined;
}

import type { ResourceContent } from '../client/results/catalogue.js';

/** `sha256:<hex>` of `bytes`, with Web Crypto (browsers, workerd, Deno, Bun and Node 20 alike). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

const encoder = new TextEncoder();

/**
 * The raw bytes a `resources/read` body stands for: a `blob` as decoded, `text`
 * as UTF-8 (the bytes a server hashed when it read the file as text).
 */
export function bytesOf(content: ResourceContent): Uint8Array {
  return content.blob ?? encoder.encode(content.text ?? '');
}

/**
 * The top-level fields in which the file's frontmatter and the entry's differ,
 * each compared as JSON values. An absent field and `null` count as the same
 * (a YAML `key:` with no value is null; the JSON copy may leave it out).
 */
export function frontmatterDifferences(
  file: Readonly<Record<string, unknown>>,
  entry: Readonly<Record<string, unknown>>,
): string[] {
  const fields = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...fields].filter((field) => !jsonEqual(own(file, field) ?? null, own(entry, field) ?? null));
}

const own = (object: Readonly<Record<string, unknown>>, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined;

/** Deep equality of JSON values: same types, same numbers and strings, same keys, arrays in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]))
  );
}

/**
 * `text` cut to its first `max` UTF-16 code units, with `…` after the cut.
 * Text from a peer goes into error messages and logs through here, because it
 * may be of any length.
 */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `value` as JSON (`String(value)` when it has none, as `undefined` has not), cut like {@link excerpt}. */
export function jsonExcerpt(value: unknown, max: number): string {
  return excerpt(JSON.stringify(value) ?? String(value), max);
}

/** Deepest nesting a message from a view may have: deeper is refused before anything recurses over it. */
export const MAX_VIEW_MESSAGE_DEPTH = 64;

/**
 * The size of `value` as JSON in UTF-8 bytes (never less; escapes count at their
 * longest). Past `max` it stops counting and returns what it had, a number over
 * `max`. `undefined` when the value nests deeper than
 * {@link MAX_VIEW_MESSAGE_DEPTH} or holds something JSON has no form for. `postMessage` hands over a structured clone, which may
 * hold a `Map`, a `Blob` or an `ArrayBuffer` of any size: counting walks the
 * value once, without building the JSON text, and stops at the first byte past
 * the bound, so a 20 MB message costs no more than a 1 MB one.
 */
export function jsonBytes(value: unknown, max: number): number | undefined {
  let total = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; depth: number };
    const item = next.value;
    // `undefined` is what JSON leaves out (a member) or writes as null (in an array): SDKs leave optional fields so.
    if (item === null || item === undefined || typeof item === 'boolean') total += 5;
    else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return undefined;
      total += String(item).length;
    } else if (typeof item === 'string') {
      total += stringBytes(item, max - total + 1);
    } else if (typeof item === 'object') {
      if (next.depth >= MAX_VIEW_MESSAGE_DEPTH) return undefined;
      if (Array.isArray(item)) {
        total += 2 + item.length;
        for (const member of item) stack.push({ value: member, depth: next.depth + 1 });
      } else if (Object.getPrototypeOf(item) === Object.prototype || Object.getPrototypeOf(item) === null) {
        total += 2;
        for (const key of Object.keys(item)) {
          total += stringBytes(key, max - total + 1) + 2;
          stack.push({ value: (item as Record<string, unknown>)[key], depth: next.depth + 1 });
        }
      } else return undefined;
    } else return undefined;
    if (total > max) return total;
  }
  return total;
}

/** UTF-8 bytes of `text` with its quotes, counted up to `limit` (then any larger number). */
function stringBytes(text: string, limit: number): number {
  // Each UTF-16 unit is at least one byte: a string longer than the limit is over it, unread.
  if (text.length > limit) return text.length;
  let bytes = 2;
  for (let index = 0; index < text.length && bytes <= limit; index++) {
    const unit = text.charCodeAt(index);
    // Escapes (\" \\ \n, \u00XX) count as their longest form; a surrogate pair is 4 bytes, 2 per half.
    bytes +=
      unit < 0x20
        ? 6
        : unit === 0x22 || unit === 0x5c
          ? 2
          : unit < 0x80
            ? 1
            : unit < 0x800
              ? 2
              : unit >= 0xd800 && unit < 0xe000
                ? 2
                : 3;
  }
  return bytes;
}

/**
 * Messages per second, as a bucket that holds `perSecond` and refills at that
 * rate: a burst up to the limit passes, a sustained flood does not.
 */
export class MessageRate {
  readonly #perSecond: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  /** `now` is injectable for tests (milliseconds). */
  constructor(perSecond: number, now: () => number = () => performance.now()) {
    this.#perSecond = perSecond;
    this.#now = now;
    this.#tokens = perSecond;
    this.#last = now();
  }

  /** Takes one message: false when the view is over its rate. */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#perSecond, this.#tokens + ((now - this.#last) / 1000) * this.#perSecond);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

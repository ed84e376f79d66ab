/** A quantifier at the reading position: `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`. */
const QUANTIFIER = /[*+?]|\{(\d+)(?:(,)(\d*))?\}/y;

/**
 * Whether `pattern` repeats a group that holds an unbounded quantifier (`*`,
 * `+`, `{n,}`): `(a+)+`, `(\w+\s?)*`, `((ab)*){2,}`, a star height above one.
 * JavaScript has no timeout for a regular expression, and such a pattern can
 * take time exponential in the string it tests (`^(a+)+$` on 30 `a`s and a `!`
 * runs for minutes), so a schema holding one is not used. A heuristic, kept
 * narrow so ordinary patterns pass: a bounded repeat of a bounded group
 * (`(\d{1,3}\.){3}`) and an optional group (`(-[\w.]+)?`) are fine. It does not
 * catch every slow pattern (overlapping alternatives, `(a|aa)+`, are not seen).
 */
export function nestsQuantifiers(pattern: string): boolean {
  /** For each group open at the reading position, whether it holds an unbounded quantifier. */
  const open: boolean[] = [];
  let at = 0;
  while (at < pattern.length) {
    const char = pattern[at];
    /** Whether the atom just read is a group that holds an unbounded quantifier. */
    let holds = false;
    if (char === '(') {
      open.push(false);
      at++;
      continue;
    }
    if (char === ')') {
      holds = open.pop() ?? false;
      if (holds && open.length > 0) open[open.length - 1] = true;
      at++;
    } else if (char === '\\') {
      at += 2;
    } else if (char === '[') {
      // A class is one atom: quantifier characters inside it are literal.
      for (at++; at < pattern.length && pattern[at] !== ']'; at += pattern[at] === '\\' ? 2 : 1);
      at++;
    } else {
      at++;
    }
    QUANTIFIER.lastIndex = at;
    const quantifier = QUANTIFIER.exec(pattern);
    if (!quantifier) continue;
    at = QUANTIFIER.lastIndex + (pattern[QUANTIFIER.lastIndex] === '?' ? 1 : 0);
    const [text, least, comma, most] = quantifier;
    const unbounded = text === '*' || text === '+' || (comma !== undefined && most === '');
    const max = unbounded ? Number.POSITIVE_INFINITY : text === '?' ? 1 : Number(most || least);
    if (holds && max > 1) return true;
    if (unbounded && open.length > 0) open[open.length - 1] = true;
  }
  return false;
}

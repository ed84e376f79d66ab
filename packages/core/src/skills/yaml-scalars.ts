/**
 * The one-line pieces of the YAML subset skill frontmatter uses: quoted and
 * plain scalars resolved by the YAML 1.2 core schema, and flow sequences of
 * scalars. Anything else is a `SyntaxError`, never a guess.
 */

/** A frontmatter value: what JSON can hold, as the entry's copy holds it. */
export type FrontmatterValue =
  | string
  | number
  | boolean
  | null
  | readonly FrontmatterValue[]
  | { readonly [key: string]: FrontmatterValue };

/** A parse failure at a line of SKILL.md (1-based). */
export const yamlError = (line: number, message: string): SyntaxError =>
  new SyntaxError(`SKILL.md frontmatter, line ${line}: ${message}`);

const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const NON_FINITE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** Characters a plain scalar may not start with (YAML 1.2 §7.3.3); `-`, `?` and `:` only when a space follows. */
const INDICATOR = /^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?:\s|$))/;

/** Resolves a plain scalar by the YAML 1.2 core schema (§10.3.2). `.inf` and `.nan` have no JSON form: refused. */
export function resolvePlain(text: string, line: number): FrontmatterValue {
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (text === 'true' || text === 'True' || text === 'TRUE') return true;
  if (text === 'false' || text === 'False' || text === 'FALSE') return false;
  if (INT.test(text) || FLOAT.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (NON_FINITE.test(text)) throw yamlError(line, `${text} has no JSON form`);
  return text;
}

/** A plain scalar's text on one line, up to a comment; `flow` also stops at `,` `]`. Returns the text and the rest. */
export function readPlain(text: string, line: number, flow: boolean): { value: string; rest: string } {
  if (INDICATOR.test(text)) throw yamlError(line, `unsupported syntax at "${text}"`);
  let end = 0;
  while (end < text.length) {
    const char = text[end];
    if (char === '#' && /\s/.test(text[end - 1] ?? '')) break;
    if (flow && (char === ',' || char === ']')) break;
    if (flow && (char === '[' || char === '{' || char === '}'))
      throw yamlError(line, 'nested flow collections are not supported');
    if (char === ':' && /^(?:\s|$)/.test(text.slice(end + 1))) {
      throw yamlError(line, `a mapping where a scalar was expected ("${text}"); quote the value`);
    }
    end++;
  }
  const value = text.slice(0, end).trimEnd();
  return { value, rest: text.slice(value.length) };
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPE_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A single- or double-quoted scalar that starts `text` and ends on the same line. */
export function readQuoted(text: string, line: number): { value: string; rest: string } {
  const quote = text[0];
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const char = text[i] as string;
    if (quote === "'") {
      if (char !== "'") value += char;
      else if (text[i + 1] === "'") value += text[++i];
      else return { value, rest: text.slice(i + 1) };
      continue;
    }
    if (char === '"') return { value, rest: text.slice(i + 1) };
    if (char !== '\\') {
      value += char;
      continue;
    }
    const code = text[++i] ?? '';
    const hexLength = HEX_ESCAPE_LENGTH[code];
    if (hexLength !== undefined) {
      const hex = text.slice(i + 1, i + 1 + hexLength);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== hexLength)
        throw yamlError(line, `invalid escape \\${code}${hex}`);
      value += String.fromCodePoint(Number.parseInt(hex, 16));
      i += hexLength;
    } else if (ESCAPES[code] !== undefined) {
      value += ESCAPES[code];
    } else {
      throw yamlError(line, `invalid escape \\${code}`);
    }
  }
  throw yamlError(line, 'a quoted string must end on its line');
}

/** Nothing but spaces and an optional comment may follow a complete value. */
export function expectEnd(rest: string, line: number): void {
  const trimmed = rest.trimStart();
  if (trimmed !== '' && !(trimmed.startsWith('#') && trimmed !== rest)) {
    throw yamlError(line, `unexpected "${trimmed}" after the value`);
  }
}

/** `[a, "b", 1]` on one line: a flow sequence of scalars (a trailing comma allowed). */
function readFlowSequence(text: string, line: number): { value: FrontmatterValue[]; rest: string } {
  const items: FrontmatterValue[] = [];
  let rest = text.slice(1).trimStart();
  while (!rest.startsWith(']')) {
    if (rest === '' || rest.startsWith('#')) throw yamlError(line, 'a flow sequence must end on its line');
    const quoted = rest.startsWith('"') || rest.startsWith("'");
    const item = quoted ? readQuoted(rest, line) : readPlain(rest, line, true);
    if (!quoted && item.value === '') throw yamlError(line, 'empty entry in a flow sequence');
    items.push(quoted ? item.value : resolvePlain(item.value, line));
    rest = item.rest.trimStart();
    if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
    else if (!rest.startsWith(']')) throw yamlError(line, `expected "," or "]" at "${rest}"`);
  }
  return { value: items, rest: rest.slice(1) };
}

/** A complete value on one line: quoted, plain, `[...]` of scalars, or `{}`; a comment may follow. */
export function readInlineValue(text: string, line: number): FrontmatterValue {
  let value: FrontmatterValue;
  let rest: string;
  if (text.startsWith('"') || text.startsWith("'")) {
    ({ value, rest } = readQuoted(text, line));
  } else if (text.startsWith('[')) {
    ({ value, rest } = readFlowSequence(text, line));
  } else if (/^\{\s*\}/.test(text)) {
    value = {};
    rest = text.slice(text.indexOf('}') + 1);
  } else {
    const plain = readPlain(text, line, false);
    value = resolvePlain(plain.value, line);
    rest = plain.rest;
  }
  expectEnd(rest, line);
  return value;
}

import {
  type FrontmatterValue,
  readInlineValue,
  readPlain,
  readQuoted,
  resolvePlain,
  yamlError,
} from './yaml-scalars.js';

export type { FrontmatterValue } from './yaml-scalars.js';

/** A `SKILL.md` split into its frontmatter (as JSON values) and the markdown after it. */
export interface ParsedSkillMarkdown {
  /** The fields of the leading `---` block, by name. */
  readonly frontmatter: { readonly [key: string]: FrontmatterValue };
  /** The Markdown after the block. */
  readonly body: string;
}

const DELIMITER = /^---[ \t]*$/;

/**
 * Parses the leading `---` YAML frontmatter block of a `SKILL.md` (Agent Skills
 * specification; SEP-2640 has hosts compare it with the entry). Understood:
 * block mappings nested by indentation, block and flow sequences of scalars,
 * plain, quoted and block (`|`, `>`) scalars, comments. Anchors, tags, flow
 * mappings, multi-line quoted strings and the like throw a `SyntaxError`:
 * a host must refuse a skill it cannot read exactly, not load a guess.
 */
export function parseSkillMarkdown(markdown: string): ParsedSkillMarkdown {
  const lines = (markdown.startsWith('\uFEFF') ? markdown.slice(1) : markdown).split(/\r?\n/);
  if (!DELIMITER.test(lines[0] ?? '')) throw yamlError(1, 'SKILL.md must begin with a --- frontmatter block');
  const close = lines.findIndex((line, index) => index > 0 && DELIMITER.test(line));
  if (close < 0) throw yamlError(1, 'the frontmatter block has no closing ---');
  const reader = new BlockReader(lines.slice(1, close));
  return { frontmatter: reader.document(), body: lines.slice(close + 1).join('\n') };
}

interface Structural {
  readonly indent: number;
  readonly content: string;
}

const isBlank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => line.length - line.trimStart().length;
const isSequenceItem = (content: string): boolean => content === '-' || content.startsWith('- ');

/** Walks the frontmatter's lines; `#pos` is the next unread line (frontmatter line n is SKILL.md line n + 2). */
class BlockReader {
  readonly #lines: readonly string[];
  #pos = 0;

  constructor(lines: readonly string[]) {
    this.#lines = lines;
  }

  document(): { [key: string]: FrontmatterValue } {
    const first = this.#peek();
    if (!first) return {};
    if (isSequenceItem(first.content)) throw yamlError(this.#lineNo(), 'the frontmatter must be a mapping');
    const mapping = this.#mapping(first.indent);
    if (this.#peek()) throw yamlError(this.#lineNo(), 'unexpected indentation');
    return mapping;
  }

  #lineNo(index = this.#pos): number {
    return index + 2;
  }

  /** The next line that is neither blank nor a comment, skipping to it. */
  #peek(): Structural | undefined {
    while (this.#pos < this.#lines.length) {
      const line = this.#lines[this.#pos] as string;
      const content = line.trimStart();
      if (content !== '' && !content.startsWith('#')) {
        if (/^ *\t/.test(line)) throw yamlError(this.#lineNo(), 'tabs may not indent YAML');
        return { indent: indentOf(line), content };
      }
      this.#pos++;
    }
    return undefined;
  }

  #mapping(indent: number): { [key: string]: FrontmatterValue } {
    const entries = new Map<string, FrontmatterValue>();
    for (let next = this.#peek(); next && next.indent >= indent; next = this.#peek()) {
      const line = this.#lineNo();
      if (next.indent > indent) throw yamlError(line, 'unexpected indentation');
      if (isSequenceItem(next.content)) throw yamlError(line, 'a sequence item where a key was expected');
      const { key, rest } = this.#key(next.content, line);
      if (entries.has(key)) throw yamlError(line, `duplicate key "${key}"`);
      this.#pos++;
      entries.set(key, this.#value(rest.trimStart(), indent, line));
    }
    // fromEntries defines own properties, so a key such as __proto__ stays a plain field.
    return Object.fromEntries(entries);
  }

  #key(content: string, line: number): { key: string; rest: string } {
    const quoted = content.startsWith('"') || content.startsWith("'");
    const { value, rest } = quoted ? readQuoted(content, line) : this.#plainKey(content, line);
    if (!/^:(?:\s|$)/.test(rest)) throw yamlError(line, `expected "key: value" at "${content}"`);
    return { key: value, rest: rest.slice(1) };
  }

  #plainKey(content: string, line: number): { value: string; rest: string } {
    const colon = content.search(/:(?:\s|$)/);
    if (colon <= 0) throw yamlError(line, `expected "key: value" at "${content}"`);
    const key = content.slice(0, colon).trimEnd();
    // Reuse the plain-scalar rules: no indicator first, no comment inside.
    if (readPlain(key, line, false).value !== key) throw yamlError(line, `unsupported key "${key}"`);
    return { value: key, rest: content.slice(colon) };
  }

  /** The value after `key:` (the key's line is already consumed). */
  #value(rest: string, indent: number, line: number): FrontmatterValue {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.#peek();
      if (next && isSequenceItem(next.content) && next.indent >= indent) return this.#sequence(next.indent);
      if (next && next.indent > indent) return this.#mapping(next.indent);
      return null;
    }
    if (rest.startsWith('|') || rest.startsWith('>')) return this.#blockScalar(rest, indent, line);
    if (/^["'[{]/.test(rest)) return readInlineValue(rest, line);
    const first = readPlain(rest, line, false);
    if (first.rest.trim() !== '') return readInlineValue(rest, line); // a comment ends the scalar
    return resolvePlain(this.#foldPlain(first.value, indent), line);
  }

  /** A plain scalar continued on more-indented lines: line breaks fold to spaces, blank lines to `\n`. */
  #foldPlain(first: string, indent: number): string {
    let text = first;
    let blanks = 0;
    for (let index = this.#pos; index < this.#lines.length; index++) {
      const line = this.#lines[index] as string;
      if (isBlank(line)) {
        blanks++;
        continue;
      }
      const content = line.trim();
      if (indentOf(line) <= indent || content.startsWith('#')) break;
      const piece = readPlain(content, this.#lineNo(index), false);
      if (piece.rest.trim() !== '') throw yamlError(this.#lineNo(index), 'a comment inside a multi-line scalar');
      text += (blanks > 0 ? '\n'.repeat(blanks) : ' ') + piece.value;
      blanks = 0;
      this.#pos = index + 1;
    }
    return text;
  }

  #sequence(indent: number): FrontmatterValue[] {
    const items: FrontmatterValue[] = [];
    for (let next = this.#peek(); next && next.indent === indent && isSequenceItem(next.content); next = this.#peek()) {
      const line = this.#lineNo();
      const rest = next.content.slice(1).trimStart();
      this.#pos++;
      if (rest === '' || rest.startsWith('#') || /^(?:[|>]|[^"'[{]*:(?:\s|$))/.test(rest)) {
        throw yamlError(line, 'sequence items must be scalars or flow sequences');
      }
      items.push(readInlineValue(rest, line));
    }
    return items;
  }

  /** `|` (literal) or `>` (folded) with optional `-`/`+` chomping (YAML 1.2 §8.1). */
  #blockScalar(header: string, indent: number, line: number): string {
    const match = /^([|>])([-+]?)(?:\s+#.*|\s*)$/.exec(header);
    if (!match) throw yamlError(line, `unsupported block scalar header "${header}"`);
    const [, style, chomp] = match;
    const raw: string[] = [];
    let contentIndent = -1;
    while (this.#pos < this.#lines.length) {
      const text = this.#lines[this.#pos] as string;
      if (!isBlank(text)) {
        if (indentOf(text) <= indent) break;
        if (contentIndent < 0) contentIndent = indentOf(text);
        if (indentOf(text) < contentIndent)
          throw yamlError(this.#lineNo(), 'block scalar line indented less than its first');
      }
      // A whitespace-only line longer than the indentation keeps its extra spaces as content (§8.1.1.2).
      raw.push(contentIndent >= 0 && text.length > contentIndent ? text.slice(contentIndent) : '');
      this.#pos++;
    }
    let last = raw.length - 1;
    while (last >= 0 && raw[last] === '') last--;
    const content = raw.slice(0, last + 1);
    const trailing = raw.length - content.length;
    const text = style === '|' ? content.join('\n') : fold(content, line);
    if (chomp === '-' || content.length === 0) return chomp === '+' ? '\n'.repeat(trailing) : text;
    return chomp === '+' ? `${text}\n${'\n'.repeat(trailing)}` : `${text}\n`;
  }
}

/** Folds `>` content: adjacent lines join with a space, each blank line between them is a `\n`. */
function fold(lines: readonly string[], line: number): string {
  let out = '';
  let blanks = 0;
  let started = false;
  for (const text of lines) {
    if (text === '') {
      blanks++;
      continue;
    }
    if (/^\s/.test(text)) throw yamlError(line, 'more-indented lines in a folded (>) scalar are not supported');
    out += (started && blanks === 0 ? ' ' : '\n'.repeat(blanks)) + text;
    blanks = 0;
    started = true;
  }
  return out;
}

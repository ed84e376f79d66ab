import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Markdown files directly in `dir` (relative to the root), or under it at any depth with `deep`. */
function markdownIn(dir: string, deep = false): string[] {
  const path = join(ROOT, dir);
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const child = join(dir, entry.name);
    if (entry.isDirectory()) return deep && child !== join('docs', 'api') ? markdownIn(child, true) : [];
    return entry.name.endsWith('.md') ? [child] : [];
  });
}

/** A child folder's README for each folder in `dir`: `packages/core/README.md`, … */
function readmesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, dir, entry.name, 'README.md')))
    .map((entry) => join(dir, entry.name, 'README.md'));
}

/** The docs a reader follows links through (docs/api is typedoc's output, not ours), and the test beds' READMEs. */
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  ...markdownIn('docs', true),
  ...readmesUnder('packages'),
  ...readmesUnder('examples'),
  'test-servers/README.md',
  ...readmesUnder('test-servers'),
  'runtimes/README.md',
  'conformance/README.md',
  'bench/README.md',
];

/** The text outside fenced code blocks, line for line (code lines become empty, so line numbers hold). */
function prose(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    return line;
  });
}

/** Inline code spans removed, so `[a](b)` written as code is not a link. */
const withoutCode = (line: string) => line.replace(/(`+)(?:(?!\1).)+?\1/g, '');

/**
 * The anchor GitHub gives a heading: its text as rendered (links as their text, no code backticks,
 * emphasis or HTML; `<Tag>` inside a code span is text, so its letters stay), lower-cased, every character but letters, digits, `-`, `_` and spaces dropped,
 * spaces as `-`. A repeated heading gets `-1`, `-2`, … (see {@link anchorsOf}).
 */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(`+[^`]*`+)/)
    .map((part) => (part.startsWith('`') ? part.replace(/`/g, '') : part.replace(/<[^>]+>/g, '')))
    .join('')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (ATX and setext), and `<a id|name="…">`. */
function anchorsOf(markdown: string): Set<string> {
  const lines = prose(markdown);
  const counts = new Map<string, number>();
  const anchors = new Set<string>();
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? '';
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    const setext = line.trim() !== '' && !line.includes('|') && /^ {0,3}(=+|-+)\s*$/.test(next) ? line : undefined;
    const heading = atx ?? setext;
    if (heading !== undefined) {
      const base = slug(heading);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  });
  return anchors;
}

/** Relative link targets of a Markdown file, with their line: inline links and images, and reference definitions. */
function linksOf(markdown: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  prose(markdown).forEach((raw, index) => {
    const line = withoutCode(raw);
    const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
    const targets = [...line.matchAll(inline)].map((match) => (match[1] as string).replace(/^<|>$/g, ''));
    const definition = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line)?.[1];
    if (definition !== undefined) targets.push(definition.replace(/^<|>$/g, ''));
    for (const target of targets) {
      // https:, mailto:, … and protocol-relative URLs are not ours to check.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      links.push({ line: index + 1, target });
    }
  });
  return links;
}

/** Why each relative link of `markdown` (a file at `file`, relative to the root) goes nowhere. */
function brokenLinks(file: string, markdown: string, read = (path: string) => readFileSync(path, 'utf8')) {
  const broken: string[] = [];
  const here = join(ROOT, file);
  for (const { line, target } of linksOf(markdown)) {
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const path = pathPart === '' ? here : resolve(dirname(here), pathPart);
    const where = `${file}:${line}: ${target}`;
    if (!existsSync(path)) {
      broken.push(`${where} (no ${relative(ROOT, path) || '.'})`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (statSync(path).isDirectory() || !path.endsWith('.md')) {
      broken.push(`${where} (an anchor into ${relative(ROOT, path)}, which has no headings to check)`);
      continue;
    }
    const text = path === here ? markdown : read(path);
    if (!anchorsOf(text).has(anchor)) broken.push(`${where} (no heading #${anchor} in ${relative(ROOT, path)})`);
  }
  return broken;
}

describe('relative links in the docs', () => {
  it('finds the docs to check', () => {
    expect(DOCS).toEqual(
      expect.arrayContaining([
        'README.md',
        'CONTRIBUTING.md',
        'ARCHITECTURE.md',
        join('docs', 'limits.md'),
        join('docs', 'guides', 'node.md'),
        join('packages', 'node-stdio', 'README.md'),
        join('examples', 'browser-chat', 'README.md'),
      ]),
    );
  });

  it.each(DOCS)('%s: every relative link names a file that exists, and a heading there when it has #anchor', (file) => {
    expect(brokenLinks(file, readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('reports a missing file, a missing heading, and an anchor into a file it cannot read, but not code', () => {
    const markdown = [
      '# Top: the `mcp` command, again',
      '## Top: the `mcp` command, again',
      'See [the top](#top-the-mcp-command-again), [the second](#top-the-mcp-command-again-1),',
      '[the limits](docs/limits.md#hostile-servers-and-limits) and [the web](https://example.com/nowhere).',
      'Broken: [gone](docs/no-such-page.md), [no heading](docs/limits.md#no-such-heading),',
      '[a folder](packages/core#readme) and [here](#nothing-here).',
      '`[code](not-a-link.md)`',
      '```md',
      '[fenced](not-a-link-either.md)',
      '```',
    ].join('\n');
    expect(brokenLinks('README.md', markdown)).toEqual([
      'README.md:5: docs/no-such-page.md (no docs/no-such-page.md)',
      'README.md:5: docs/limits.md#no-such-heading (no heading #no-such-heading in docs/limits.md)',
      'README.md:6: packages/core#readme (an anchor into packages/core, which has no headings to check)',
      'README.md:6: #nothing-here (no heading #nothing-here in README.md)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(slug('@mcp — an isomorphic MCP client SDK')).toBe('mcp--an-isomorphic-mcp-client-sdk');
    expect(slug('OAuth 2.1 (browser, Worker, Node)')).toBe('oauth-21-browser-worker-node');
    expect(slug("The server's environment")).toBe('the-servers-environment');
    expect(slug('`--json` output')).toBe('--json-output');
    expect(slug('Modes (on `modes`)')).toBe('modes-on-modes');
    expect(slug('[Links](https://example.com) and snake_case')).toBe('links-and-snake_case');
  });
});

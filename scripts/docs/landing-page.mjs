/**
 * The API reference's landing page (typedoc.json `readme`), written to .tmp/api-readme.md before typedoc
 * runs: the README's introduction, everything above its first `## ` heading, so the two never disagree,
 * then a link to each guide of docs/guides/, which typedoc renders beside the API (`projectDocuments`).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LANDING_PAGE = join(root, '.tmp', 'api-readme.md');

/** Writes the landing page; throws when the README has no introduction or a guide no title. */
export function writeLandingPage() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const end = readme.search(/^## /m);
  if (end <= 0) throw new Error('README.md: no introduction above its first "## " heading');
  // The page lives in .tmp/: a relative link of the README's points one folder up.
  const introduction = readme
    .slice(0, end)
    .trimEnd()
    .replace(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi, '](../$1)');
  const guides = readdirSync(join(root, 'docs', 'guides'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const title = /^# (.+)$/m.exec(readFileSync(join(root, 'docs', 'guides', name), 'utf8'))?.[1];
      if (!title) throw new Error(`docs/guides/${name}: no "# " title`);
      return `- [${title}](../docs/guides/${name})`;
    });
  const page = [
    introduction,
    '## Guides',
    guides.join('\n'),
    '## The API',
    'One module per import path, in the navigation: `@mcp/core` and its subpaths `protocol`, `transport`, ' +
      '`browser`, `connections` and `skills`, `@mcp/node-stdio`, `@mcp/ai-sdk` and `@mcp/react`.',
  ].join('\n\n');
  mkdirSync(dirname(LANDING_PAGE), { recursive: true });
  writeFileSync(LANDING_PAGE, `${page}\n`);
}

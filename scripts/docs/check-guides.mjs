/**
 * Type-checks every TypeScript snippet of docs/guides/*.md (each ```ts block) against the packages'
 * sources, so a guide cannot show a name, option or signature the API does not have. Each block is
 * its own module in .tmp/guide-snippets/, checked by `tsc --noEmit` with the packages' paths (like
 * the e2e and runtimes tsconfigs); errors are reported at the guide's own line. It also fails on a
 * relative link to a file that does not exist, and when there is nothing to check (no guide, or a
 * guide with no snippet).
 *
 *   node scripts/docs/check-guides.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const guidesDir = join(root, 'docs', 'guides');
const outDir = join(root, '.tmp', 'guide-snippets');

/** The ```ts (or ```typescript) blocks of one Markdown file, each with the line its code starts on (1-based). */
function snippets(markdown) {
  const found = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(`{3,})(ts|typescript)\b/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '```'] = open;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith(`${indent}${fence}`)) end += 1;
    const code = lines.slice(start, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    found.push({ line: start + 1, code: code.join('\n') });
    i = end;
  }
  return found;
}

const guides = readdirSync(guidesDir)
  .filter((name) => name.endsWith('.md'))
  .sort();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/** Relative Markdown links (`[text](path#anchor)`) whose file is missing; anchors are not checked. */
function brokenLinks(markdown, from) {
  const broken = [];
  for (const [, target = ''] of markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    if (!existsSync(resolve(from, target))) broken.push(target);
  }
  return broken;
}

/** Generated file name -> where its code starts in the guide. */
const origins = new Map();
const empty = [];
const broken = [];
for (const guide of guides) {
  const markdown = readFileSync(join(guidesDir, guide), 'utf8');
  for (const target of brokenLinks(markdown, guidesDir)) broken.push(`${guide}: broken link ${target}`);
  const blocks = snippets(markdown);
  if (blocks.length === 0) empty.push(guide);
  blocks.forEach((block, index) => {
    const file = `${guide.replace(/\.md$/, '')}.${index + 1}.ts`;
    writeFileSync(join(outDir, file), `${block.code}\n`);
    origins.set(file, { guide: relative(root, join(guidesDir, guide)), line: block.line });
  });
}

const src = (path) => [`../../packages/${path}`];
writeFileSync(
  join(outDir, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: {
        types: ['node'],
        // Every snippet is a module of its own, so none sees another's names.
        moduleDetection: 'force',
        paths: {
          '@mcp/core': src('core/src/index.ts'),
          '@mcp/core/protocol': src('core/src/protocol/index.ts'),
          '@mcp/core/transport': src('core/src/transport/index.ts'),
          '@mcp/core/browser': src('core/src/browser/index.ts'),
          '@mcp/core/skills': src('core/src/skills/index.ts'),
          '@mcp/node-stdio': src('node-stdio/src/index.ts'),
          '@mcp/ai-sdk': src('ai-sdk/src/index.ts'),
          // Deno's specifiers for the same package (docs/guides/deno.md).
          'npm:@mcp/core': src('core/src/index.ts'),
          'npm:@mcp/core/transport': src('core/src/transport/index.ts'),
          // The official SDK, for the "before" half of docs/guides/coming-from-official-sdk.md: the
          // version the test servers run on, so its names are checked too.
          '@modelcontextprotocol/sdk/*': ['../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/*'],
        },
      },
      include: ['*.ts', '../../scripts/docs/guide-globals.d.ts'],
    },
    null,
    2,
  ),
);

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const run = spawnSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', outDir], { encoding: 'utf8' });
const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
// "file.ts(3,5): error TS…" -> "docs/guides/guide.md:<line>:5: error TS…"
const located = output.replace(/^(?:.*[\\/])?([\w.-]+\.\d+\.ts)\((\d+),(\d+)\)/gm, (whole, file, line, column) => {
  const origin = origins.get(file);
  return origin ? `${origin.guide}:${origin.line + Number(line) - 1}:${column}` : whole;
});
if (located.trim()) console.error(located.trim());
if (run.error) console.error(`could not run tsc: ${run.error.message}`);

let failed = run.status !== 0;
if (guides.length === 0) {
  console.error(`no guides in ${relative(root, guidesDir)}`);
  failed = true;
}
for (const line of broken) {
  console.error(line);
  failed = true;
}
for (const guide of empty) {
  console.error(`${guide}: no TypeScript snippet to check`);
  failed = true;
}
console.log(`${origins.size} snippets from ${guides.length} guides: ${failed ? 'FAILED' : 'ok'}`);
process.exit(failed ? 1 : 0);

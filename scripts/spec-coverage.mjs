#!/usr/bin/env node
/**
 * Checks docs/spec-coverage.md, the table of every client MUST, SHOULD and MAY
 * of the MCP revisions we speak: each row marked `proven` names a test file and
 * the exact title of a test in it (an `it`, `test` or `describe` string), and
 * this script fails when that file or that title is gone, so the table cannot
 * silently outlive the tests it cites. Rows marked `declined`, `gap` or
 * `pending` must say why.
 *
 *   node scripts/spec-coverage.mjs                    check docs/spec-coverage.md
 *   node scripts/spec-coverage.mjs --table other.md   check another table (tests of this script)
 *   node scripts/spec-coverage.mjs --json report.json also write {passed, failed, problems} there
 *
 * One problem per line on stderr, as `table:line: what is wrong`; exit code 1 if any.
 * `passed` counts the rows whose proof (or reason) holds, `failed` those whose does not.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './lib/repo-root.mjs';

/** What a row's Status cell may say; `pending` rows wait for a feature still being built. */
const STATUSES = ['proven', 'declined', 'gap', 'pending'];

/** The header a coverage table starts with; other tables in the document are left alone. */
const HEADER = ['id', 'requirement', 'level', 'status', 'test file', 'test name or reason'];

/**
 * The first argument of a test-framework call: `it('…')`, `test.skipIf(x)("…")`,
 * `describe.each(rows)(`…`)`. Group 1 is the call, 2 the quote, 3 the raw title.
 */
const TITLE = /\b(it|test|describe)(?:\s*\.\s*[A-Za-z]+(?:\([^)]*\))?)*\s*\(\s*(['"`])((?:\\[\s\S]|(?!\2)[^\\])*)\2/g;

/** Splits a Markdown table line into its cells, honouring `\|` inside a cell. */
export function cells(line) {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

/** A cell's text without the Markdown code span around a whole path or title. */
const unquote = (cell) => (/^`[^`]*`$/.test(cell) ? cell.slice(1, -1) : cell);

/**
 * The rows of every coverage table in `markdown`, each with its 1-based line.
 * Several test titles in one row are separated by `<br>`.
 */
export function parseTable(markdown) {
  const rows = [];
  let inTable = false;
  for (const [index, line] of markdown.split('\n').entries()) {
    if (!line.trim().startsWith('|')) {
      inTable = false;
      continue;
    }
    const row = cells(line);
    if (row.map((cell) => cell.toLowerCase()).join('|') === HEADER.join('|')) {
      inTable = true;
      continue;
    }
    if (!inTable || row.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const [id = '', requirement = '', level = '', status = '', file = '', proof = ''] = row;
    rows.push({
      line: index + 1,
      width: row.length,
      id,
      requirement,
      level,
      status: status.toLowerCase(),
      file: unquote(file),
      proof,
      titles: proof
        .split(/<br\s*\/?>/)
        .map((title) => unquote(title.trim()))
        .filter(Boolean),
    });
  }
  return rows;
}

/** Undoes the escapes a JS string literal may use in a test title. */
function unescapeLiteral(raw) {
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, code) => {
    if (code.startsWith('u{')) return String.fromCodePoint(Number.parseInt(code.slice(2, -1), 16));
    if (code.length > 1) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r' }[code] ?? code;
  });
}

/** Every test and describe title in a test file's source, as the runner shows it (templates as written). */
export function testTitles(source) {
  const titles = new Set();
  for (const match of source.matchAll(TITLE)) titles.add(match[2] === '`' ? match[3] : unescapeLiteral(match[3]));
  return titles;
}

/** The problems of one row (empty when its proof or reason holds), reading test files under `root`. */
export function checkRow(row, root, readTitles) {
  const problems = [];
  const statusWord = row.status.split(/\s/)[0] ?? '';
  if (row.width !== HEADER.length) problems.push(`has ${row.width} cells, not ${HEADER.length}`);
  if (!row.id) problems.push('has no id');
  if (!STATUSES.includes(statusWord)) problems.push(`status "${row.status}" is none of ${STATUSES.join(', ')}`);
  if (statusWord !== 'proven') {
    if (!row.proof) problems.push(`is ${statusWord || 'unmarked'} without a reason`);
    return problems;
  }
  if (!row.file) return [...problems, 'is proven but names no test file'];
  if (row.titles.length === 0) return [...problems, 'is proven but names no test'];
  const path = isAbsolute(row.file) ? row.file : join(root, row.file);
  if (!existsSync(path)) return [...problems, `names ${row.file}, which does not exist`];
  const titles = readTitles(path);
  for (const title of row.titles) {
    if (!titles.has(title)) problems.push(`${row.file} has no test titled "${title}"`);
  }
  return problems;
}

/** Checks every row of the table at `tablePath`; ids must be unique. */
export function checkTable(tablePath, root = repoRoot) {
  const markdown = readFileSync(tablePath, 'utf8');
  const rows = parseTable(markdown);
  const cache = new Map();
  const readTitles = (path) => {
    if (!cache.has(path)) cache.set(path, testTitles(readFileSync(path, 'utf8')));
    return cache.get(path);
  };
  const seen = new Map();
  const inside = relative(root, tablePath);
  const where = inside && !inside.startsWith('..') ? inside : tablePath;
  const problems = [];
  let passed = 0;
  let failed = 0;
  for (const row of rows) {
    const found = checkRow(row, root, readTitles);
    if (seen.has(row.id)) found.push(`repeats id ${row.id} (first on line ${seen.get(row.id)})`);
    else seen.set(row.id, row.line);
    if (found.length === 0) passed += 1;
    else failed += 1;
    for (const problem of found) problems.push(`${where}:${row.line}: row ${row.id || '?'} ${problem}`);
  }
  if (rows.length === 0) {
    failed += 1;
    problems.push(`${where}: no coverage table (header: | ${HEADER.join(' | ')} |)`);
  }
  const statuses = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  for (const row of rows) {
    const word = row.status.split(/\s/)[0] ?? '';
    if (word in statuses) statuses[word] += 1;
  }
  return { passed, failed, problems, statuses, rows: rows.length };
}

function main(argv) {
  const option = (name) => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
  const table = option('--table') ?? join(repoRoot, 'docs/spec-coverage.md');
  const json = option('--json');
  const result = checkTable(isAbsolute(table) ? table : join(process.cwd(), table));
  for (const problem of result.problems) console.error(problem);
  const counts = Object.entries(result.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  console.log(`spec coverage: ${result.rows} rows (${counts}); ${result.passed} hold, ${result.failed} do not`);
  if (json) {
    mkdirSync(dirname(json), { recursive: true });
    writeFileSync(json, JSON.stringify(result, null, 2));
  }
  return result.failed === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));

#!/usr/bin/env node
/**
 * The hostile-server tables of docs/limits.md, generated: what the hostile suite tried
 * and whether the client survived (from vitest's JSON report of the suite's
 * own run), and every numeric limit with its default (read from the doc
 * comments of the option interfaces, so the table cannot drift from the code).
 *
 *   node scripts/hostile-table.mjs                 run the suite, print the tables
 *   node scripts/hostile-table.mjs --report r.json use an existing vitest JSON report
 *   node scripts/hostile-table.mjs --out docs/hostile.md
 *   node scripts/hostile-table.mjs --write         replace the docs/limits.md section between
 *                                                  <!-- hostile-table:start --> and <!-- hostile-table:end -->
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE = [
  'packages/core/test/hostile',
  'packages/node-stdio/test/hostile-stdio.test.ts',
  'packages/node-stdio/test/bridge/hostile-bridge.test.ts',
];

/** The option interfaces whose numeric members are limits, by file. */
const LIMIT_SOURCES = [
  'packages/core/src/client/options.ts',
  'packages/core/src/transport/http/options.ts',
  'packages/core/src/auth/options.ts',
  'packages/node-stdio/src/stdio-transport.ts',
  'packages/core/src/skills/list-skills.ts',
  'packages/core/src/skills/load-skill.ts',
  'packages/core/src/skills/read-directory.ts',
  'packages/node-stdio/src/loopback-redirect.ts',
  'packages/ai-sdk/src/mcp-tool-set.ts',
  'packages/core/src/connections/connection-options.ts',
  'packages/core/src/connections/pending-queue.ts',
  'packages/core/src/connections/authorization-gate.ts',
  'packages/core/src/connections/servers.ts',
  'packages/core/src/connections/lease.ts',
  'packages/core/src/browser/local-storage-store.ts',
];

/**
 * Option interfaces a program passes by themselves, named as they are: `ConnectionOptions.client`
 * takes `ClientOptions` and `ServersOptions.connection` takes `ConnectionOptions`, yet a Client's
 * limits read best as `ClientOptions.limits.…`.
 */
const ROOTS = new Set(['ClientOptions', 'StreamableHttpTransportOptions', 'OAuthOptions', 'ConnectionOptions']);

/** Limits that are no option, each an exported constant with a doc comment, by file. */
const FIXED_LIMITS = [{ path: 'packages/core/src/browser/authorization-handoff.ts', name: 'MAX_CALLBACK_URL_LENGTH' }];

/** Files whose exported numeric constants a doc comment's `{@link NAME}` default may name. */
const CONSTANT_SOURCES = [
  ...LIMIT_SOURCES,
  ...FIXED_LIMITS.map((fixed) => fixed.path),
  'packages/core/src/auth/pending-authorizations.ts',
  'packages/core/src/connections/tool-bounds.ts',
];

/** Numeric options with a documented default that bound nothing, left out of the limits table. */
const NOT_LIMITS = new Set(['LoopbackAuthorizeOptions.port']);

/** The order families appear in (others follow, in the order the report has them). */
const FAMILY_ORDER = [
  'bombs',
  'frames',
  'json shapes',
  'schemas',
  'floods',
  'stalls',
  'retry storms',
  'redirects',
  'urls',
  'input requests',
  'protocol',
  'http+sse',
  'leaks',
  'stdio frames',
  'behind mcp bridge',
];

/** The page `--write` updates, between its two markers. */
const TARGET = 'docs/limits.md';
const START = '<!-- hostile-table:start -->';
const END = '<!-- hostile-table:end -->';

function parseArgs(argv) {
  const options = { report: undefined, out: undefined, write: false };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    if (flag === '--write') options.write = true;
    else if (flag === '--report' || flag === '--out') {
      const value = argv[++index];
      if (value === undefined) usage(`${flag} needs a file`);
      options[flag.slice(2)] = value;
    } else usage(`unknown argument ${flag}`);
  }
  return options;
}

function usage(problem) {
  process.stderr.write(
    `hostile-table: ${problem}\nusage: node scripts/hostile-table.mjs [--report FILE] [--out FILE] [--write]\n`,
  );
  process.exit(2);
}

/** Runs the suite with vitest's JSON reporter and returns the report (even when tests failed). */
function runSuite() {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-table-'));
  const file = join(dir, 'report.json');
  try {
    const vitest = join(root, 'node_modules', '.bin', 'vitest');
    const run = spawnSync(vitest, ['run', '--reporter=json', `--outputFile=${file}`, ...SUITE], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.error) throw run.error;
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `bombs (legacy era)` → family `bombs`, where `HTTP, legacy`; the stdio file
 * gets its own family; the bridge file's family is its describe's, where the
 * remote is on HTTP behind `mcp bridge`.
 */
function placeOf(file, ancestors) {
  const bridge = file.includes('hostile-bridge');
  const stdio = file.includes('node-stdio') && !bridge;
  const top = ancestors[0] ?? '';
  const era = /\((legacy|modern) era\b/.exec(top)?.[1] ?? (/2026-07-28/.test(top) ? 'modern' : undefined);
  const family = stdio ? 'stdio frames' : top.replace(/\s*\(.*\)\s*$/, '');
  const transport = stdio ? 'stdio' : bridge ? 'bridge → HTTP' : 'HTTP';
  if (/2024-11-05/.test(top)) return { family, where: 'HTTP+SSE 2024-11-05' };
  const where = era === undefined ? transport : `${transport} ${era === 'modern' ? '2026-07-28' : 'legacy'}`;
  return { family, where };
}

/**
 * Splits a test name into the fault and what the client did, at its first
 * main verb (`fails`, `is`, `are`…, not one in a `that …` clause). Test names
 * are written that way: "a gzip bomb under a 1 MiB limit | fails with …".
 */
function splitTitle(title) {
  const named = /^[a-z]+(?:-[a-z]+)+: /.exec(title);
  const rest = named ? title.slice(named[0].length) : title;
  const verb =
    /(?<!\bthat|\bwhich) (fails?|is|are|settles|pollute|does not|cannot|carries|stops|reaches|leaves?|make|runs) /.exec(
      rest,
    );
  if (!verb) return { fault: rest, did: '' };
  return { fault: rest.slice(0, verb.index).replace(/[,;:]$/, ''), did: rest.slice(verb.index + 1) };
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function cell(text) {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
  // `_` outside code spans escaped too, or Markdown reads `__proto__` as emphasis
  // (and a formatter rewrites it); inside a code span a backslash would show.
  return escaped
    .split('`')
    .map((part, index) => (index % 2 === 0 ? part.replace(/_/g, '\\_') : part))
    .join('`');
}

/** One row per (family, test name), with the transports and eras it ran on. */
function faultRows(report) {
  const rows = new Map();
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && !file.assertionResults?.length) {
      // The file did not run at all (an import or setup failure): say so rather than drop it.
      const name = file.name.slice(file.name.lastIndexOf('/') + 1);
      rows.set(file.name, {
        family: name,
        fault: 'the whole file',
        did: 'did not run',
        where: [],
        passed: 0,
        failed: 1,
        knownBugs: 0,
      });
    }
    for (const test of file.assertionResults ?? []) {
      const { family, where } = placeOf(file.name, test.ancestorTitles ?? []);
      const key = `${family}\u0000${test.title}`;
      const title = test.title.replace(/ \(known bug\)$/, '');
      const row = rows.get(key) ?? { family, ...splitTitle(title), where: [], passed: 0, failed: 0, knownBugs: 0 };
      if (!row.where.includes(where)) row.where.push(where);
      // An `it.fails` case pins a bug not fixed yet: it "passes" while the client still fails.
      const knownBug = /\(known bug\)$/.test(test.title);
      if (test.status === 'passed' && !knownBug) row.passed++;
      else if (test.status === 'passed') row.knownBugs++;
      else if (test.status === 'failed') row.failed++;
      rows.set(key, row);
    }
  }
  const rank = (family) => (FAMILY_ORDER.includes(family) ? FAMILY_ORDER.indexOf(family) : FAMILY_ORDER.length);
  return [...rows.values()].sort((a, b) => rank(a.family) - rank(b.family));
}

function faultTable(rows) {
  const runs = rows.reduce((sum, row) => sum + row.passed + row.failed + row.knownBugs, 0);
  const survived = rows.reduce((sum, row) => sum + row.passed, 0);
  const lines = [
    `The hostile-server suite (\`test-servers/hostile/\`, ${SUITE.map((path) => `\`${path}\``).join(', ')}): ` +
      `${plural(rows.length, 'bad input')}, ${plural(runs, 'run')} across transports and eras, ${survived} survived.`,
    '',
    '| family | fault | what the client did | where | passed |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    let passed = row.passed > 0 ? 'yes' : 'skipped';
    if (row.knownBugs > 0) passed = '**no** (known bug, pinned with `it.fails`)';
    if (row.failed > 0) passed = `**no** (${row.failed} failed)`;
    lines.push(`| ${cell(row.family)} | ${cell(row.fault)} | ${cell(row.did)} | ${row.where.join(', ')} | ${passed} |`);
  }
  return lines.join('\n');
}

/** A doc comment's text on one line, without its `*`s. */
function docText(comment) {
  return (comment ?? '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .trim();
}

/**
 * Interfaces of a TypeScript file: each member's name, type and doc comment text. A member
 * starts a line (so no `name: value;` inside a comment passes for one), `readonly` or not.
 */
function interfacesOf(source) {
  const interfaces = [];
  for (const match of source.matchAll(/export interface (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
    const members = [];
    const member = /(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?^[ \t]*(?:readonly )?(\w+)\??: ([^;]+);/gm;
    for (const found of match[2].matchAll(member)) {
      members.push({ name: found[2], type: found[3].trim(), doc: docText(found[1]) });
    }
    interfaces.push({ name: match[1], members });
  }
  return interfaces;
}

/** The exported constants of a TypeScript file: each one's value (as written) and doc comment text. */
function constantsOf(source) {
  const constants = new Map();
  for (const match of source.matchAll(/(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?^export const (\w+) = ([^;]+);/gm)) {
    constants.set(match[2], { value: match[3].trim(), doc: docText(match[1]) });
  }
  return constants;
}

/** Every numeric constant of `CONSTANT_SOURCES` by name, one defined as another resolved: `30_000` → 30000. */
function numericConstants() {
  const written = new Map(CONSTANT_SOURCES.flatMap((path) => [...constantsOf(readFileSync(join(root, path), 'utf8'))]));
  const numberOf = (name, seen = new Set()) => {
    const value = written.get(name)?.value;
    if (value === undefined || seen.has(name)) return undefined;
    if (/^\d[\d_]*$/.test(value)) return Number(value.replaceAll('_', ''));
    return /^\w+$/.test(value) ? numberOf(value, new Set([...seen, name])) : undefined;
  };
  const numbers = [...written.keys()].map((name) => [name, numberOf(name)]);
  return new Map(numbers.filter(([, number]) => number !== undefined));
}

/**
 * `{@link NAME}` in a doc comment: in the default, NAME's value when NAME is a numeric constant
 * ("{@link DEFAULT_MAX_PENDING}, 8" reads "8"), so the table shows the number the code uses;
 * anywhere else, NAME as code.
 */
function resolveLinks(text, constants, inDefault) {
  const linked = text.replace(/\{@link (\w+)\}/g, (_, name) =>
    inDefault && constants.has(name) ? String(constants.get(name)) : `\`${name}\``,
  );
  // "8, 8": the comment said the number after the name.
  return linked.replace(/^(\d+), \1\b/, '$1');
}

/**
 * The default a doc comment states ("(default 1000)", "Default 64 MiB.", "0 (the
 * default)") and the comment without that phrase.
 */
function defaultOf(doc) {
  const patterns = [/\s*\(default ([^)]+)\)/i, /\s*\bDefault:? ([^.;]+)[.;]/, /(\S+) \(the default\)/];
  for (const pattern of patterns) {
    const match = pattern.exec(doc);
    if (!match) continue;
    // "0 (the default) never retries" reads well as it is; the other phrases are cut out.
    const why = pattern === patterns[2] ? doc : doc.replace(pattern, '');
    return { fallback: match[1].trim(), why };
  }
  return undefined;
}

/**
 * Every numeric option with a documented default, named by its path from the top-level options,
 * then the fixed limits with their values.
 */
function limitRows() {
  const interfaces = LIMIT_SOURCES.flatMap((path) =>
    interfacesOf(readFileSync(join(root, path), 'utf8')).map((declared) => ({ ...declared, path })),
  );
  const constants = numericConstants();
  /**
   * `limits.` for ClientLimits (a member of ClientOptions), and so on up to a root. A type that
   * only indexes another (`McpToolSetOptions['callOptions']`) does not hold it.
   */
  const pathTo = (name, seen = new Set()) => {
    if (ROOTS.has(name)) return `${name}.`;
    for (const owner of interfaces) {
      if (seen.has(owner.name)) continue;
      const member = owner.members.find((candidate) => new RegExp(`\\b${name}\\b(?!\\[)`).test(candidate.type));
      if (member) return `${pathTo(owner.name, new Set([...seen, name]))}${member.name}.`;
    }
    return `${name}.`;
  };
  const rows = [];
  for (const declared of interfaces) {
    for (const member of declared.members) {
      const option = `${pathTo(declared.name)}${member.name}`;
      const stated = member.type === 'number' && !NOT_LIMITS.has(option) ? defaultOf(member.doc) : undefined;
      if (stated) {
        const fallback = resolveLinks(stated.fallback, constants, true);
        rows.push({ option, fallback, why: resolveLinks(stated.why, constants, false) });
      }
    }
  }
  for (const { path, name } of FIXED_LIMITS) {
    const doc = constantsOf(readFileSync(join(root, path), 'utf8')).get(name)?.doc;
    if (doc === undefined || !constants.has(name)) throw new Error(`${path} exports no numeric constant ${name}`);
    rows.push({ option: name, fallback: `${constants.get(name)}, fixed`, why: resolveLinks(doc, constants, false) });
  }
  return rows;
}

function limitTable(rows) {
  const lines = [
    'Limits and their defaults (from the option doc comments; a fixed limit from its constant):',
    '',
    '| option | default | what it bounds |',
    '| --- | --- | --- |',
  ];
  for (const row of rows) lines.push(`| \`${row.option}\` | ${cell(row.fallback)} | ${cell(row.why)} |`);
  return lines.join('\n');
}

const options = parseArgs(process.argv.slice(2));
const report = options.report ? JSON.parse(readFileSync(options.report, 'utf8')) : runSuite();
const rows = faultRows(report);
const markdown = `${faultTable(rows)}\n\n${limitTable(limitRows())}\n`;
// A table that shows a fault not survived is still written, but the run says so.
if (rows.some((row) => row.failed > 0)) process.exitCode = 1;
if (options.out) writeFileSync(options.out, markdown);
if (options.write) {
  const targetPath = join(root, TARGET);
  const page = readFileSync(targetPath, 'utf8');
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) usage(`${TARGET} has no ${START} … ${END} section`);
  writeFileSync(targetPath, `${page.slice(0, start + START.length)}\n${markdown}${page.slice(end)}`);
  // The tables are written unaligned; Biome lays them out as `pnpm lint` expects.
  const biome = spawnSync(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', targetPath], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (biome.status !== 0) process.exitCode = 1;
}
if (!options.out && !options.write) process.stdout.write(markdown);

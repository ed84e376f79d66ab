#!/usr/bin/env node
// The pack check: what npm users would get. Packs every published package with pnpm (so
// `workspace:*` becomes a version), installs the tarballs with npm into a fresh project outside
// the workspace (third-party dependencies from the registry, through npm's own cache), and checks
// there, as a user would: `import` and `require` of every exports entry on each Node we support,
// the `mcp` bin, the types under each TypeScript module resolution, a browser bundle, the
// compiled-in versions, the manifests, and `attw` and `publint` on the tarballs; and real calls to
// the reference stdio server of test-servers (a program on each Node, and `mcp call`).
//
//   node scripts/publish/pack-check.mjs [--json <report>]
//
// Needs the packages built (`pnpm build`); `npm test` runs it after the build, `pnpm release`
// before publishing. Ends with `N passed, M failed`; exit code 1 if anything failed.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { missingNodeBinary, nodeBinaryPath } from '../../runtimes/node/binaries.mjs';
import { repoRoot } from '../lib/repo-root.mjs';

/** The published packages, by folder under packages/. */
const PACKAGES = ['core', 'node-stdio', 'ai-sdk', 'react'];
const WORK = join(repoRoot, '.tmp/pack-check');
const TARBALLS = join(WORK, 'tarballs');
const APP = join(WORK, 'app');
/**
 * Bounds on each child process: the install may download; everything else is local. Under `npm test`
 * this check shares two cores with vitest and conformance, where a TypeScript 6 check that takes 9 s
 * alone was seen to take over 90 s: the bound is for a hung command, not a slow one.
 */
const INSTALL_MS = 180_000;
const COMMAND_MS = 300_000;

const rootRequire = createRequire(join(repoRoot, 'package.json'));
const tsc6 = join(dirname(rootRequire.resolve('@typescript/typescript6/package.json')), 'bin/tsc6');
const toolBin = (name) => join(repoRoot, 'node_modules/.bin', name);

/**
 * Every Node we support: this one (the engines floor on CI) and runtimes/node's 22 and 24. A
 * missing one is a failed check ("no Node 22 binary for <platform>"), not one fewer Node checked.
 */
const nodes = [process.execPath, ...[22, 24].filter((major) => !missingNodeBinary(major)).map(nodeBinaryPath)].filter(
  (path, index, all) => all.indexOf(path) === index,
);
const missingNodes = [22, 24].map(missingNodeBinary).filter((reason) => reason !== undefined);

/** Runs a command; resolves with its output, rejects with an Error that carries it. */
function run(command, args, { cwd = repoRoot, timeout = COMMAND_MS, env } = {}) {
  return new Promise((resolve, reject) => {
    const options = { cwd, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } };
    execFile(command, args, options, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      const why = error.killed ? `timed out after ${timeout / 1000}s` : `exit code ${error.code}`;
      const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
      reject(new Error(`${relative(repoRoot, command) || command} ${args.join(' ')}: ${why}\n${output}`));
    });
  });
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const sourceManifest = (pkg) => readJson(join(repoRoot, 'packages', pkg, 'package.json'));
const installedManifest = (name) => readJson(join(APP, 'node_modules', name, 'package.json'));

/** An exports entry that is a file to serve, not a module to import: package.json, the sandbox proxy page. */
const isAsset = (subpath) => /\.(json|html)$/.test(subpath);

/** The import specifiers of a package's exports map: `@mcp/core`, `@mcp/core/protocol`, … (not its assets). */
function entriesOf(manifest) {
  return Object.keys(manifest.exports ?? { '.': null })
    .filter((subpath) => !isAsset(subpath))
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
}

const names = PACKAGES.map((pkg) => sourceManifest(pkg).name);
const allEntries = () => names.flatMap((name) => entriesOf(installedManifest(name)));

// ---------------------------------------------------------------------------------------------
// The checks, in order. Each throws to fail; one that needs a failed one fails as not run.

const tarballs = new Map();

async function pack() {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(TARBALLS, { recursive: true });
  for (const pkg of PACKAGES) {
    const dir = join(repoRoot, 'packages', pkg);
    const manifest = sourceManifest(pkg);
    const missing = [manifest.main, ...(manifest.bin ? Object.values(manifest.bin) : [])].filter(
      (file) => !existsSync(join(dir, file)),
    );
    if (missing.length > 0) throw new Error(`packages/${pkg}: ${missing.join(', ')} missing: run pnpm build first`);
    const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', TARBALLS], { cwd: dir });
    const { filename, files } = JSON.parse(stdout);
    const paths = files.map((file) => file.path);
    for (const required of ['package.json', 'LICENSE']) {
      if (!paths.includes(required)) throw new Error(`${manifest.name}: the tarball has no ${required}`);
    }
    const stray = paths.filter((path) => !/^(dist\/|package\.json$|LICENSE$|README\.md$)/.test(path));
    if (stray.length > 0) throw new Error(`${manifest.name}: the tarball holds more than dist: ${stray.join(', ')}`);
    tarballs.set(pkg, filename);
  }
}

/** What a registry page and `npm publish` read: complete, the same across the packages, no workspace: left. */
async function manifests() {
  const problems = [];
  const repositories = new Set();
  for (const pkg of PACKAGES) {
    const { stdout } = await run('tar', ['-xzOf', tarballs.get(pkg), 'package/package.json']);
    const json = JSON.parse(stdout);
    const say = (problem) => problems.push(`${json.name}: ${problem}`);
    for (const field of ['description', 'license', 'author', 'homepage', 'bugs', 'repository', 'engines']) {
      if (!json[field]) say(`no ${field}`);
    }
    if (json.license !== 'MIT') say(`license is ${json.license}`);
    if (!Array.isArray(json.keywords) || json.keywords.length === 0) say('no keywords');
    if (json.sideEffects !== false) say('sideEffects is not false');
    if (json.repository?.directory !== `packages/${pkg}`) say(`repository.directory is ${json.repository?.directory}`);
    repositories.add(json.repository?.url);
    if (json.publishConfig?.access !== 'public') say('publishConfig.access is not public (a scoped package)');
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dep, range] of Object.entries(json[field] ?? {})) {
        if (/^(workspace|file|link):/.test(range)) say(`${field}.${dep} is ${range}`);
      }
    }
  }
  if (repositories.size !== 1)
    problems.push(`the packages name different repositories: ${[...repositories].join(', ')}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/** Versions compiled into the code (`mcp --version`, the default clientInfo) agree with package.json. */
async function versions() {
  await run(process.execPath, [join(repoRoot, 'scripts/publish/sync-versions.mjs'), '--check']);
}

async function install() {
  mkdirSync(APP, { recursive: true });
  const dependencies = Object.fromEntries(
    PACKAGES.map((pkg) => [sourceManifest(pkg).name, `file:${relative(APP, tarballs.get(pkg))}`]),
  );
  // The peers an app brings: `ai` for @mcp/ai-sdk and React for @mcp/react (the versions their tests use), Node's types.
  dependencies.ai = sourceManifest('ai-sdk').devDependencies.ai;
  for (const name of ['react', '@types/react']) dependencies[name] = sourceManifest('react').devDependencies[name];
  dependencies['@types/node'] = readJson(join(repoRoot, 'package.json')).devDependencies['@types/node'];
  writeFileSync(
    join(APP, 'package.json'),
    `${JSON.stringify({ name: 'pack-check-app', private: true, dependencies }, null, 2)}\n`,
  );
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error'],
    { cwd: APP, timeout: INSTALL_MS },
  );
  // One copy of @mcp/core for everything: a second would break instanceof across packages.
  for (const name of names) {
    const nested = join(APP, 'node_modules', name, 'node_modules/@mcp/core');
    if (existsSync(nested)) throw new Error(`${name} got its own @mcp/core (${relative(APP, nested)})`);
  }
}

/**
 * Loads every entry with `import` (an .mjs) and with `require` (a .cjs) and reports the export
 * names each gave, and whether the two loads gave the same objects (one module instance).
 */
function writeLoaders() {
  const entries = JSON.stringify(allEntries());
  const report = `
    const loaded = {};
    for (const entry of entries) loaded[entry] = Object.keys(await load(entry)).sort();
    process.stdout.write(JSON.stringify(loaded));`;
  writeFileSync(
    join(APP, 'import-all.mjs'),
    `const entries = ${entries};\nconst load = (entry) => import(entry);\n${report}\n`,
  );
  writeFileSync(
    join(APP, 'require-all.cjs'),
    `const entries = ${entries};
(async () => {
  const load = async (entry) => {
    const required = require(entry);
    const imported = await import(entry);
    for (const [name, value] of Object.entries(imported)) {
      if (required[name] !== value) throw new Error(entry + ': require and import gave two copies of ' + name);
    }
    return required;
  };
  ${report}
})().catch((error) => { console.error(error); process.exitCode = 1; });
`,
  );
}

async function loadAll(node, script) {
  const { stdout } = await run(node, [script], { cwd: APP });
  const loaded = JSON.parse(stdout);
  const empty = Object.entries(loaded).filter(([, keys]) => keys.length === 0);
  if (empty.length > 0) throw new Error(`no exports from ${empty.map(([entry]) => entry).join(', ')}`);
  return loaded;
}

/** The reference stdio server of test-servers (the official SDK), which the real calls below talk to. */
const REFERENCE_SERVER = join(repoRoot, 'test-servers/stdio.mjs');

/** A program as an app writes it: a Client over a StdioTransport from the installed tarballs, calling a tool. */
function writeCallProgram() {
  writeFileSync(
    join(APP, 'call-echo.mjs'),
    `import { Client } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';
const client = new Client(new StdioTransport({ command: process.execPath, args: [${JSON.stringify(REFERENCE_SERVER)}] }));
await client.connect();
const result = await client.callTool('echo', { text: 'from the tarballs' });
await client.close();
process.stdout.write(result.content.map((part) => part.text).join(''));
`,
  );
}

async function callFromTarballs(node) {
  writeCallProgram();
  const { stdout } = await run(node, ['call-echo.mjs'], { cwd: APP });
  if (stdout !== 'from the tarballs') throw new Error(`the echo tool answered ${JSON.stringify(stdout)}`);
}

async function mcpCall() {
  const { stdout } = await run(
    'npx',
    ['--no-install', 'mcp', 'call', 'echo', '{"text":"through mcp call"}', '--', process.execPath, REFERENCE_SERVER],
    { cwd: APP },
  );
  if (stdout.trim() !== 'through mcp call') throw new Error(`npx mcp call printed ${JSON.stringify(stdout)}`);
}

async function mcpBin() {
  const { version } = installedManifest('@mcp/node-stdio');
  const { stdout } = await run('npx', ['--no-install', 'mcp', '--version'], { cwd: APP });
  if (stdout.trim() !== version) throw new Error(`npx mcp --version printed ${JSON.stringify(stdout)}, not ${version}`);
}

/**
 * Type-checks small consumers under one module setting: each imports every entry as a namespace,
 * which must not be `any` (strict: an entry whose types do not resolve is an error too). Our own
 * declarations are checked in full (skipLibCheck off, against the consumer's `lib` and `types`):
 * @mcp/core and @mcp/node-stdio in one program; @mcp/ai-sdk in another with skipLibCheck on, as
 * `ai`'s declarations need more than any of these consumers has (@types/json-schema; node10 support).
 */
async function typecheck({ mode, extension, options, packages = names }) {
  const entriesFrom = (list) => list.flatMap((name) => entriesOf(installedManifest(name)));
  const ours = packages.filter((name) => name !== '@mcp/ai-sdk');
  const programs = [
    { name: mode, entries: entriesFrom(ours), skipLibCheck: false },
    {
      name: `${mode}-ai-sdk`,
      entries: entriesFrom(packages.filter((name) => !ours.includes(name))),
      skipLibCheck: true,
    },
  ];
  for (const { name, entries, skipLibCheck } of programs.filter((program) => program.entries.length > 0)) {
    const file = `consumer-${name}${extension}`;
    const lines = [
      'type NotAny<T> = 0 extends 1 & T ? never : T;',
      ...entries.map((entry, i) => `import * as entry${i} from '${entry}';`),
      ...entries.map((_, i) => `export const typed${i}: NotAny<typeof entry${i}> = entry${i};`),
    ];
    if (entries.includes('@mcp/core')) {
      const core = `entry${entries.indexOf('@mcp/core')}`;
      lines.push(`export const client = new ${core}.Client(${core}.MemoryTransport.createPair()[0]);`);
    }
    writeFileSync(join(APP, file), `${lines.join('\n')}\n`);
    const tsconfig = join(APP, `tsconfig-${name}.json`);
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', skipLibCheck, ...options };
    writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions, files: [file] }, null, 2)}\n`);
    await run(process.execPath, [tsc6, '-p', tsconfig, '--pretty', 'false'], { cwd: APP });
  }
}

/** A browser app's bundler resolves the `default` files; every entry, the no-bundler ones too, must bundle. */
async function browserBundle() {
  const { build } = await import(rootRequire.resolve('esbuild'));
  const browserEntries = allEntries().filter((entry) => !entry.startsWith('@mcp/node-stdio'));
  const source = browserEntries.map((entry, i) => `export * as entry${i} from '${entry}';`).join('\n');
  writeFileSync(join(APP, 'browser-entry.mjs'), `${source}\n`);
  // esbuild throws on what a browser cannot load (a Node built-in, an unresolved import).
  await build({
    entryPoints: [join(APP, 'browser-entry.mjs')],
    absWorkingDir: APP,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    external: ['ai'],
    write: false,
    logLevel: 'silent',
  });
}

/** attw on each tarball. Its cjs-resolves-to-esm rule predates require(esm); see CONTRIBUTING.md "ESM only". */
async function attw() {
  for (const pkg of PACKAGES) {
    // attw resolves every exports entry as a module; an asset (an HTML page) has no types to check.
    const assets = Object.keys(sourceManifest(pkg).exports ?? {}).filter(
      (subpath) => isAsset(subpath) && subpath !== './package.json',
    );
    const exclude = assets.length > 0 ? ['--exclude-entrypoints', ...assets] : [];
    await run(toolBin('attw'), [
      tarballs.get(pkg),
      '--ignore-rules',
      'cjs-resolves-to-esm',
      ...exclude,
      '--format',
      'ascii',
    ]);
  }
}

async function publint() {
  for (const pkg of PACKAGES) {
    const { stdout } = await run(toolBin('publint'), ['run', tarballs.get(pkg), '--strict']);
    if (!/All good!/.test(stdout)) throw new Error(`${sourceManifest(pkg).name}: ${stdout.trim()}`);
  }
}

const nodeTypes = { types: ['node'] };
/** The consumers the types are checked for: TypeScript's module resolutions, and a browser app. */
const typeModes = [
  {
    title: 'moduleResolution bundler',
    mode: 'bundler',
    extension: '.ts',
    options: { module: 'esnext', moduleResolution: 'bundler', ...nodeTypes },
  },
  {
    title: 'moduleResolution bundler, a browser app (DOM, no @types/node): @mcp/core, @mcp/ai-sdk and @mcp/react',
    mode: 'browser',
    extension: '.ts',
    options: {
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom', 'dom.iterable', 'esnext.disposable'],
      types: [],
    },
    packages: ['@mcp/core', '@mcp/ai-sdk', '@mcp/react'],
  },
  {
    title: 'moduleResolution node16, an ES module (.mts)',
    mode: 'node16',
    extension: '.mts',
    options: { module: 'node16', moduleResolution: 'node16', ...nodeTypes },
  },
  {
    // TypeScript models require() of ES modules (Node >= 20.19) under module node20 and nodenext;
    // under node16 and node18 it models the Node versions before it, which our engines exclude.
    title: 'moduleResolution node16, a CommonJS module (.cts, module node20: require of ESM)',
    mode: 'node16-cjs',
    extension: '.cts',
    options: { module: 'node20', moduleResolution: 'node16', ...nodeTypes },
  },
  {
    title: 'moduleResolution node10 (typesVersions for the subpaths)',
    mode: 'node10',
    extension: '.ts',
    options: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', ...nodeTypes },
  },
];

/** Runs tasks at most two at a time (the machines have two cores), in the order given. */
const twoAtATime = (() => {
  let active = 0;
  const queue = [];
  const next = () => {
    if (active >= 2 || queue.length === 0) return;
    active += 1;
    const { task, resolve, reject } = queue.shift();
    task()
      .then(resolve, reject)
      .finally(() => {
        active -= 1;
        next();
      });
  };
  return (task) =>
    new Promise((resolve, reject) => {
      queue.push({ task, resolve, reject });
      next();
    });
})();

const nodeVersion = async (node) => (await run(node, ['--version'])).stdout.trim();

async function checks() {
  const list = [
    ['pnpm pack of each package (dist, package.json, LICENSE, README only)', pack],
    ['packed manifests complete, no workspace: ranges', manifests, ['pack']],
    ['compiled-in versions match package.json', versions],
    ['npm install of the tarballs in a fresh project, one @mcp/core', install, ['pack']],
  ];
  let imported;
  for (const reason of missingNodes) {
    list.push([
      reason.slice(0, reason.indexOf(':')),
      () => {
        throw new Error(reason);
      },
    ]);
  }
  for (const node of nodes) {
    const version = await nodeVersion(node);
    list.push([
      `a Client over a StdioTransport calls the reference server's echo tool on Node ${version}`,
      () => callFromTarballs(node),
      ['install'],
    ]);
    list.push([
      `import of every exports entry on Node ${version}`,
      async () => {
        writeLoaders();
        const loaded = await loadAll(node, 'import-all.mjs');
        imported ??= loaded;
      },
      ['install'],
    ]);
    list.push([
      `require of every exports entry on Node ${version} (same instances as import)`,
      async () => {
        writeLoaders();
        const loaded = await loadAll(node, 'require-all.cjs');
        if (imported && JSON.stringify(loaded) !== JSON.stringify(imported)) {
          throw new Error('require gave other export names than import');
        }
      },
      ['install'],
    ]);
  }
  // The type checks are the slow part (our declarations checked in full): they start together, two at a time.
  let typeRuns;
  const startTypeChecks = () =>
    (typeRuns ??= typeModes.map((mode) => {
      const done = twoAtATime(() => typecheck(mode));
      done.catch(() => {}); // awaited by its own check, in order
      return done;
    }));
  list.push(
    ['npx mcp --version prints the package version', mcpBin, ['install']],
    ['npx mcp call echo against the reference stdio server', mcpCall, ['install']],
    ...typeModes.map((mode, i) => [`types: ${mode.title}`, () => startTypeChecks()[i], ['install']]),
    ['a browser bundle (esbuild) takes the default build of every entry', browserBundle, ['install']],
    ['attw on each tarball', attw, ['pack']],
    ['publint --strict on each tarball', publint, ['pack']],
  );
  return list;
}

// ---------------------------------------------------------------------------------------------

const { values } = parseArgs({ options: { json: { type: 'string' } } });
const results = [];
const failedSteps = new Set();
const stepName = (fn) => fn.name;
const started = performance.now();
for (const [name, fn, needs = []] of await checks()) {
  const start = performance.now();
  let error;
  const missing = needs.filter((need) => failedSteps.has(need));
  try {
    if (missing.length > 0) throw new Error(`not run: ${missing.join(', ')} failed`);
    await fn();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    failedSteps.add(stepName(fn));
  }
  const took = `${((performance.now() - start) / 1000).toFixed(1)}s`;
  results.push({ name, ok: !error, took, ...(error ? { error } : {}) });
  console.log(`${error ? 'FAIL' : 'ok  '} ${name} (${took})${error ? `\n${error.replace(/^/gm, '     ')}` : ''}`);
}
const passed = results.filter((result) => result.ok).length;
const failed = results.length - passed;
console.log(`\npack check: ${((performance.now() - started) / 1000).toFixed(1)}s, in ${relative(repoRoot, WORK)}`);
console.log(`${passed} passed, ${failed} failed`);
if (values.json) {
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, `${JSON.stringify({ passed, failed, checks: results }, null, 2)}\n`);
}
process.exitCode = failed > 0 ? 1 : 0;

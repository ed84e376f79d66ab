/**
 * Keeps the docs' code true: every TypeScript and JavaScript snippet of the Markdown a user reads is
 * type-checked against the packages' sources, and the ones marked runnable run against the test servers.
 *
 *   node scripts/docs/check-snippets.mjs
 *
 * Files: README.md, CONTRIBUTING.md, docs/**\/*.md (not the generated docs/api), packages/*\/README.md and
 * examples/*\/README.md, found by walking those folders. Blocks: ```ts and ```typescript, ```tsx (React, with
 * @mcp/react's React types), ```js, ```javascript and ```mjs (JavaScript is checked too, with checkJs). Each block is a module of its own: it sees only what
 * it imports, and `import './x.js'` resolves from the Markdown file's folder, so an example's README can
 * import the example's own modules. Errors are reported at the Markdown line.
 *
 * An HTML comment on the line before the fence (invisible on GitHub and npm) says what a block needs:
 *
 *   <!-- snippet: fragment -->
 *       Partial code that only makes sense inside a larger program. It is checked in a program of its own
 *       where the few names of scripts/docs/snippet-fragment.d.ts (`client`, `env`, `model`, …) exist.
 *   <!-- snippet: run against=test-servers/stdio -->
 *       Also run with Node (esbuild strips the types), in a folder where `my-server.mjs` is the reference
 *       server over stdio (test-servers/stdio.mjs) and `flaky-server.mjs` the same server exiting with code 3
 *       when its tool `crash` is called.
 *   <!-- snippet: run against=test-servers/http -->
 *       Also run, with every request to example.com or a subdomain of it sent to the reference server over
 *       Streamable HTTP (test-servers/http, `/v2`: both protocol eras) instead, so the code runs as printed.
 *
 * Imports resolve as an app's would: the packages of this repository by their published names (`paths`
 * below, to their sources), `node:*` from @types/node, and any other package from the root's node_modules,
 * through its `exports`, as its own types declare it. A package of the last kind must be a root dependency,
 * pinned: the UI frameworks of docs/guides/connections.md's bindings (vue, svelte) are. A snippet that
 * imports anything else fails with the line that does, before tsc would say only "Cannot find module".
 *
 * A run passes when the program exits 0 within RUN_TIMEOUT_MS. Its stdin is a pipe left open, like a
 * terminal nobody types at, so a program that keeps reading its terminal fails instead of passing. Runs
 * use the packages' dist/ (`pnpm build` first). Everything else is type-checked only.
 *
 * It also fails on a relative link to a file that does not exist, a marker it does not know, a marker with
 * no snippet under it, and a guide (docs/guides/*.md) without a snippet to check.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, '.tmp', 'snippets');
/** How long one run may take, the server's start included: every runnable snippet ends in about a second. */
const RUN_TIMEOUT_MS = 20_000;
/** Runs at a time: the test machine has two cores. */
const RUN_CONCURRENCY = 2;

/** The Markdown files to check, relative to the root, sorted. */
function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md'].filter((file) => existsSync(join(root, file)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && path !== 'docs/api') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  for (const parent of ['packages', 'examples']) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const readme = `${parent}/${entry.name}/README.md`;
      if (entry.isDirectory() && existsSync(join(root, readme))) files.push(readme);
    }
  }
  return files.sort();
}

const LANGUAGES = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', mjs: 'js' };
const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const SERVERS = ['test-servers/stdio', 'test-servers/http'];

/** Reads a marker's words (`run against=test-servers/http`) into what the block needs, or a problem. */
function parseMarker(text) {
  const [kind, ...options] = text.split(/\s+/);
  const values = Object.fromEntries(options.map((option) => option.split('=', 2)));
  if (kind === 'fragment' && options.length === 0) return { fragment: true };
  if (kind === 'run' && options.length === 1 && SERVERS.includes(values.against)) return { against: values.against };
  return { problem: `unknown snippet marker "${text}" (fragment, or run against=${SERVERS.join('|')})` };
}

/** The checked blocks of one Markdown file: language, code, the line its code starts on (1-based), marker. */
function snippets(markdown) {
  const found = [];
  const problems = [];
  const lines = markdown.split('\n');
  let marker;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const markerText = MARKER.exec(line)?.[1];
    if (markerText !== undefined) {
      if (marker) problems.push(`${marker.line}: snippet marker with no snippet under it`);
      marker = { line: i + 1, ...parseMarker(markerText) };
      if (marker.problem) problems.push(`${i + 1}: ${marker.problem}`);
      continue;
    }
    const open = /^(\s*)(`{3,})(\w*)/.exec(line);
    if (!open) {
      if (line.trim() !== '' && marker) {
        problems.push(`${marker.line}: snippet marker with no snippet under it`);
        marker = undefined;
      }
      continue;
    }
    const [, indent = '', fence = '```', tag = ''] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').startsWith(`${indent}${fence}`)) end += 1;
    const language = LANGUAGES[tag];
    if (language) {
      const code = lines.slice(i + 1, end).map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text));
      found.push({ language, line: i + 2, code: code.join('\n'), ...marker });
    } else if (marker) {
      problems.push(`${marker.line}: snippet marker over a \`\`\`${tag} block, which is not checked`);
    }
    marker = undefined;
    i = end;
  }
  if (marker) problems.push(`${marker.line}: snippet marker with no snippet under it`);
  return { found, problems };
}

/** Relative Markdown links (`[text](path#anchor)`) whose file is missing; anchors are not checked. */
function brokenLinks(markdown, from) {
  const broken = [];
  for (const [, target = ''] of markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    if (!existsSync(resolve(from, target))) broken.push(target);
  }
  return broken;
}

/** `from './x.js'` and `import('./x.js')` point at the Markdown file's folder; the line count stays the same. */
function resolveRelativeImports(code, markdownDir, fromDir) {
  return code.replace(/(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g, (_, head, quote, specifier) => {
    let target = relative(fromDir, join(markdownDir, specifier)).replaceAll('\\', '/');
    if (!target.startsWith('.')) target = `./${target}`;
    return `${head}${quote}${target}${quote}`;
  });
}

const problems = [];
const files = markdownFiles();
/** Every block, with where it came from and the file name it is checked under. */
const blocks = [];
for (const file of files) {
  const markdown = readFileSync(join(root, file), 'utf8');
  for (const target of brokenLinks(markdown, dirname(join(root, file))))
    problems.push(`${file}: broken link ${target}`);
  const { found, problems: markerProblems } = snippets(markdown);
  for (const problem of markerProblems) problems.push(`${file}:${problem}`);
  if (file.startsWith('docs/guides/') && found.length === 0) problems.push(`${file}: no snippet to check`);
  found.forEach((block, index) => {
    const name = `${file.replace(/\.md$/, '').replaceAll('/', '__')}.${index + 1}.${block.language}`;
    blocks.push({ ...block, file, name });
  });
}

rmSync(outDir, { recursive: true, force: true });
const packageSource = (path) => [join(root, 'packages', path)];
/** The packages by their published names, to their sources: a snippet is checked against the API as it is now. */
const paths = {
  '@mcp/core': packageSource('core/src/index.ts'),
  '@mcp/core/protocol': packageSource('core/src/protocol/index.ts'),
  '@mcp/core/transport': packageSource('core/src/transport/index.ts'),
  '@mcp/core/connections': packageSource('core/src/connections/index.ts'),
  '@mcp/core/apps': packageSource('core/src/apps/index.ts'),
  '@mcp/core/browser': packageSource('core/src/browser/index.ts'),
  '@mcp/core/skills': packageSource('core/src/skills/index.ts'),
  '@mcp/node-stdio': packageSource('node-stdio/src/index.ts'),
  '@mcp/ai-sdk': packageSource('ai-sdk/src/index.ts'),
  '@mcp/react': packageSource('react/src/index.ts'),
  // React's types, as @mcp/react's tests use them, for the ```tsx snippets.
  react: [join(root, 'packages/react/node_modules/@types/react')],
  'react/*': [join(root, 'packages/react/node_modules/@types/react/*')],
  'react-dom/*': [join(root, 'packages/react/node_modules/@types/react-dom/*')],
  // Deno's specifiers for the same package (docs/guides/deno.md).
  'npm:@mcp/core': packageSource('core/src/index.ts'),
  'npm:@mcp/core/transport': packageSource('core/src/transport/index.ts'),
  'npm:@mcp/core/connections': packageSource('core/src/connections/index.ts'),
  // The AI SDK, as @mcp/ai-sdk installs it.
  ai: [join(root, 'packages/ai-sdk/node_modules/ai')],
  // The official SDK, for the "before" half of docs/guides/coming-from-official-sdk.md: the version the test
  // servers run on, so its names are checked too.
  '@modelcontextprotocol/sdk/*': [join(root, 'test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/*')],
};

/** Packages a snippet may import beyond `paths` and `node:*`: the root's own, found from .tmp/ upward. */
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const rootPackages = new Set(Object.keys({ ...rootPackage.dependencies, ...rootPackage.devDependencies }));

/** `'@scope/name/sub'` -> `'@scope/name'`, `'name/sub'` -> `'name'`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Whether `specifier` is one of `paths`, by name or by a `name/*` pattern. */
const mapped = (specifier) =>
  Object.keys(paths).some((key) => (key.endsWith('/*') ? specifier.startsWith(key.slice(0, -1)) : key === specifier));

/** The bare imports of `block` that nothing resolves, each with its Markdown line. */
function unresolvable(block) {
  const found = [];
  const imports = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g;
  for (const match of block.code.matchAll(imports)) {
    const specifier = match[2] ?? '';
    if (specifier.startsWith('.') || specifier.startsWith('node:') || mapped(specifier)) continue;
    if (rootPackages.has(packageOf(specifier))) continue;
    const line = block.line + block.code.slice(0, match.index).split('\n').length - 1;
    found.push(
      `${block.file}:${line}: imports '${specifier}', which no snippet may: map it in scripts/docs/check-snippets.mjs ` +
        '`paths` (a package of this repository) or add it, pinned, to the root devDependencies (as vue and svelte are)',
    );
  }
  return found;
}
for (const block of blocks) problems.push(...unresolvable(block));

/** Writes one program's snippets and tsconfig; whole snippets and fragments are two programs, apart. */
function writeProgram(dir, members, extraDeclarations) {
  mkdirSync(dir, { recursive: true });
  for (const block of members) {
    const code = resolveRelativeImports(block.code, dirname(join(root, block.file)), dir);
    writeFileSync(join(dir, block.name), `${code}\n`);
  }
  const tsconfig = {
    extends: join(root, 'tsconfig.base.json'),
    compilerOptions: {
      types: ['node'],
      allowJs: true,
      checkJs: true,
      // Every snippet is a module of its own, so none sees another's names.
      moduleDetection: 'force',
      jsx: 'react-jsx',
      paths,
    },
    include: ['*.ts', '*.tsx', '*.js', join(root, 'scripts/docs/snippet-platform.d.ts'), ...extraDeclarations],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
}

/** Runs a command to its end; resolves with its exit status (null when killed), output and whether it timed out. */
function execute(command, args, { timeoutMs, ...options }) {
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, timeoutMs);
    child.on('error', (error) => {
      output += `could not start ${command}: ${error.message}\n`;
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, output, timedOut });
    });
  });
}

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const byName = new Map(blocks.map((block) => [block.name, block]));

/** Type-checks one program; reports each error at its Markdown line. */
async function typeCheck(dir) {
  const { status, output } = await execute(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', dir], {});
  // "file.ts(3,5): error TS…" -> "docs/guides/guide.md:<line>:5: error TS…"
  const located = output.replace(
    /^(?:.*[\\/])?([\w.-]+\.\d+\.(?:tsx|ts|js))\((\d+),(\d+)\)/gm,
    (whole, name, line, column) => {
      const block = byName.get(name);
      return block ? `${block.file}:${block.line + Number(line) - 1}:${column}` : whole;
    },
  );
  if (status !== 0) problems.push(located.trim() || `tsc -p ${relative(root, dir)} failed`);
}

const runnable = blocks.filter((block) => block.against);
const runDir = join(outDir, 'run');

/** The folder runs start in: the packages under their names, and the servers the snippets start by file name. */
function prepareRuns() {
  for (const name of ['core', 'node-stdio', 'ai-sdk']) {
    if (!existsSync(join(root, 'packages', name, 'dist'))) {
      throw new Error(`packages/${name}/dist is missing: run \`pnpm build\` before the snippets run`);
    }
  }
  mkdirSync(join(runDir, 'node_modules', '@mcp'), { recursive: true });
  for (const name of ['core', 'node-stdio', 'ai-sdk']) {
    symlinkSync(join(root, 'packages', name), join(runDir, 'node_modules', '@mcp', name), 'dir');
  }
  const stdioServer = JSON.stringify(join(root, 'test-servers', 'stdio.mjs'));
  writeFileSync(join(runDir, 'my-server.mjs'), `await import(${stdioServer});\n`);
  writeFileSync(
    join(runDir, 'flaky-server.mjs'),
    `process.argv.push('--exit-on-call', 'crash');\nawait import(${stdioServer});\n`,
  );
}

/** Runs one snippet; a failure names the Markdown line and shows what the program printed. */
async function run(block, servers) {
  const file = join(runDir, block.name.replace(/\.(tsx|ts|js)$/, '.mjs'));
  const { code } = transformSync(block.code, { loader: block.language, format: 'esm', target: 'node20.19' });
  writeFileSync(file, code);
  const env = { ...process.env };
  const args = [file];
  if (block.against === 'test-servers/http') {
    env.SNIPPET_MCP_URL = `${servers.modes}/v2`;
    args.unshift('--import', join(root, 'scripts', 'docs', 'snippet-fetch.mjs'));
  }
  const { status, output, timedOut } = await execute(process.execPath, args, {
    cwd: runDir,
    env,
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (status === 0) return;
  const why = timedOut ? `did not end within ${RUN_TIMEOUT_MS} ms` : `exited with ${status}`;
  const printed = output.trim() ? `\n${output.trim().replace(/^/gm, '    ')}` : '';
  problems.push(`${block.file}:${block.line}: the snippet run against ${block.against} ${why}${printed}`);
}

async function runAll() {
  if (runnable.length === 0) return;
  prepareRuns();
  const needsHttp = runnable.some((block) => block.against === 'test-servers/http');
  const { startHttpServers } = await import('../../test-servers/http/serve.mjs');
  const servers = needsHttp ? await startHttpServers() : undefined;
  try {
    const queue = [...runnable];
    const worker = async () => {
      for (let block = queue.shift(); block; block = queue.shift()) await run(block, servers);
    };
    await Promise.all(Array.from({ length: RUN_CONCURRENCY }, worker));
  } finally {
    await servers?.close();
  }
}

const whole = blocks.filter((block) => !block.fragment);
const fragments = blocks.filter((block) => block.fragment);
writeProgram(join(outDir, 'whole'), whole, []);
writeProgram(join(outDir, 'fragment'), fragments, [join(root, 'scripts/docs/snippet-fragment.d.ts')]);
await Promise.all([
  typeCheck(join(outDir, 'whole')),
  fragments.length > 0 ? typeCheck(join(outDir, 'fragment')) : undefined,
  runAll().catch((error) => problems.push(String(error?.message ?? error))),
]);

for (const problem of problems) console.error(problem);
const summary = `${blocks.length} snippets (${fragments.length} fragments, ${runnable.length} run) from ${files.length} files`;
console.log(`${summary}: ${problems.length > 0 ? 'FAILED' : 'ok'}`);
process.exit(problems.length > 0 ? 1 : 0);

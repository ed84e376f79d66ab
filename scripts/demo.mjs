#!/usr/bin/env node
/**
 * `npm run demo`: the SDK end to end on a fresh clone. Sets the clone up (pnpm,
 * install, build) when needed, then drives the reference MCP server with the
 * built `mcp` command-line tool: inspect it, call tools, read a binary resource.
 */
import { join } from 'node:path';
import { repoRoot } from './lib/repo-root.mjs';
import { runCommand } from './lib/run-command.mjs';
import { ensureBuilt, ensureInstalled, ensurePnpm } from './lib/setup.mjs';

const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = (text) => paint('1', text);
const dim = (text) => paint('2', text);

const mcpBin = join(repoRoot, 'packages', 'node-stdio', 'dist', 'cli.js');
const server = ['node', 'test-servers/stdio.mjs'];

/** What the demo shows, in order: a title, what it teaches, and the `mcp` arguments. */
const steps = [
  ['Inspect the server', 'who it is, what it can do, its tools, resources and prompts', ['inspect']],
  ['Call a tool', 'echo returns its text as a text part', ['call', 'echo', '{"text":"Hello from @mcp!"}']],
  ['Structured output', 'add returns text and structuredContent', ['call', 'add', '{"a":2,"b":40}']],
  ['Every content kind', 'text, image, audio, embedded resource, resource link, text', ['call', 'mixed-content']],
  ['Read a binary resource', 'blobs arrive decoded to bytes', ['read', 'test://static/binary/1']],
];

/** Shell-style quoting, only so the printed command can be pasted back into a shell. */
const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

async function setUp() {
  console.log(dim('Checking the set-up (pnpm, packages, build)…'));
  let env = { ...process.env };
  for (const step of [ensurePnpm, ensureInstalled, ensureBuilt]) {
    const result = await step(env);
    if (!result.ok) {
      console.error(`\ndemo: set-up failed at ${step.name}; see the output above.`);
      process.exit(1);
    }
    env = result.env;
  }
  return env;
}

async function main() {
  const env = await setUp();
  console.log(
    `\n${bold('@mcp demo')}: the mcp CLI (built on @mcp/core + @mcp/node-stdio) against the reference server`,
  );
  const failed = [];
  for (const [index, [title, note, args]] of steps.entries()) {
    console.log(`\n${bold(`── ${index + 1}/${steps.length} ${title}`)} ${dim(`(${note})`)}`);
    console.log(dim(`$ mcp ${[...args, '--', ...server].map(quote).join(' ')}`));
    const mcpArgs = [mcpBin, ...args, '--', process.execPath, ...server.slice(1)];
    const code = await runCommand(process.execPath, mcpArgs, { env });
    if (code !== 0) failed.push(`${title} (exit ${code})`);
  }
  console.log('');
  if (failed.length > 0) {
    console.error(`demo: ${failed.length} step(s) failed: ${failed.join(', ')}`);
    process.exitCode = 1;
    return;
  }
  console.log(`${bold('Done.')} Try it yourself: ${dim('node packages/node-stdio/dist/cli.js --help')}`);
}

await main();

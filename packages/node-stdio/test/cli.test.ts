import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ErrorCode } from '@mcp/core';
import { describe, expect, it } from 'vitest';
import { styleFor } from '../src/cli/format.js';
import { run } from '../src/cli/run.js';
import { summariseProperties, typeName } from '../src/cli/schema-summary.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const referenceServer = path('../../../test-servers/stdio.mjs');
const everything = path('../../../test-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const bin = path('../dist/cli.js');
const { version } = JSON.parse(readFileSync(path('../package.json'), 'utf8')) as { version: string };

/** A writable that keeps what it is given, and can call back on each write. */
function capture(onWrite?: (text: string) => void) {
  const chunks: string[] = [];
  return {
    write(chunk: string) {
      chunks.push(chunk);
      onWrite?.(chunks.join(''));
      return true;
    },
    get text() {
      return chunks.join('');
    },
  };
}

/** Runs the CLI in-process against the reference server (plus any server flags). */
async function mcp(argv: string[], serverFlags: string[] = [], signal?: AbortSignal) {
  const stdout = capture();
  const stderr = capture();
  const code = await run([...argv, '--', process.execPath, referenceServer, ...serverFlags], {
    stdout,
    stderr,
    env: {},
    ...(signal && { signal }),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('mcp inspect', () => {
  it("shows the server's identity, capabilities and every feature with summarised schemas", async () => {
    const { code, stdout, stderr } = await mcp(['inspect']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('MCP Reference Server');
    expect(stdout).toMatch(/^ {2}name +mcp-reference-server$/m);
    expect(stdout).toMatch(/^ {2}version +1\.0\.0$/m);
    expect(stdout).toMatch(/^ {2}protocol +\d{4}-\d{2}-\d{2}$/m);
    expect(stdout).toMatch(/^ {2}era +legacy \(initialize handshake\)$/m);
    expect(stdout).toMatch(/^ {2}transport +stdio$/m);
    expect(stdout).toMatch(/^ {2}capabilities +.*resources \(subscribe, listChanged\)/m);
    expect(stdout).toContain('Reference server for the @mcp client tests.');
    expect(stdout).toMatch(/^Tools \(\d+\)$/m);
    expect(stdout).toMatch(/^ {2}echo +Returns the given text as one text part\.\n +\(text: string\*\)$/m);
    expect(stdout).toContain('(a: number*, b: number*) → {sum: number*}');
    expect(stdout).toContain('(steps: integer = 3, intervalMs: integer = 50)');
    expect(stdout).toMatch(/^ {2}test:\/\/static\/binary\/1 +binary-1 +application\/octet-stream/m);
    expect(stdout).toMatch(/^Resource templates \(1\)\n {2}test:\/\/template\/\{id\}/m);
    expect(stdout).toMatch(/^ {2}greeting +\(name\*, style\)/m);
    expect(stdout).not.toContain('\x1b['); // not a TTY: no color
  });

  it('lists only what a minimal server declares, and --json gives the raw report', async () => {
    const { code, stdout } = await mcp(['inspect', '--json'], ['--profile', 'minimal']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.serverInfo.name).toBe('mcp-reference-server');
    expect(report).toMatchObject({ era: 'legacy', transport: 'stdio' });
    expect(report.capabilities).toEqual({ tools: {} });
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
    expect(report).not.toHaveProperty('resources');
    expect(report).not.toHaveProperty('prompts');
  });
});

describe('mcp call', () => {
  it('prints every content part of mixed-content in order, binary parts as type, MIME type and size', async () => {
    const { code, stdout } = await mcp(['call', 'mixed-content']);
    expect(code).toBe(0);
    expect(stdout.split('\n')).toEqual([
      'first',
      '[image image/png, 69 bytes]',
      '[audio audio/wav, 60 bytes]',
      '[resource test://static/text/1, text/plain]',
      '  Resource 1',
      '[resource_link test://static/binary/1, "binary-1", application/octet-stream]',
      'last',
      '',
    ]);
  });

  it('prints structured content as pretty JSON, and the wire result with --json', async () => {
    const human = await mcp(['call', 'add', '{"a": 2, "b": 3}']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('5\n\nstructuredContent:\n{\n  "sum": 5\n}\n');
    const json = await mcp(['call', 'add', '{"a": 2, "b": 40}', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      content: [{ type: 'text', text: '42' }],
      structuredContent: { sum: 42 },
      isError: false,
    });
  });

  it('prints an isError result and exits 1', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'fail', '{"message":"disk on fire"}']);
    expect(code).toBe(1);
    expect(stdout).toBe('disk on fire\n');
    expect(stderr).toBe('mcp: tool "fail" returned an error result (isError)\n');
  });

  it('reports an unknown tool as the JSON-RPC error the server sent', async () => {
    const { code, stderr } = await mcp(['call', 'no-such-tool']);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^mcp: tools/call: .*no-such-tool.* \\(${ErrorCode.InvalidParams}\\)\n$`));
  });

  it('says the code of a JSON-RPC error once, when the server already put it in its message', async () => {
    // The official SDKs send "MCP error -32602: …" as the message itself.
    const stderr = capture();
    const code = await run(['prompt', 'no-such-prompt', '-q', '--', process.execPath, everything, 'stdio'], {
      stdout: capture(),
      stderr,
      env: {},
    });
    expect(code).toBe(1);
    expect(stderr.text).toBe('mcp: prompts/get: Prompt no-such-prompt not found (-32602)\n');
  });

  it('gives up after --timeout milliseconds with one line naming the method', async () => {
    // The tool reports progress every 100 ms, which restarts a timeout: --timeout bounds the whole call.
    const { code, stderr } = await mcp(['call', 'slow', '{"steps": 100, "intervalMs": 100}', '--timeout', '1500']);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^progress 1\/100 step 1 of 100\n(progress .*\n)*mcp: tools\/call exceeded its total timeout of 1500 ms\n$/,
    );
  });
});

describe('mcp read and mcp prompt', () => {
  it('reads a binary resource as its size and bytes, and as base64 with --json', async () => {
    const human = await mcp(['read', 'test://static/binary/3']);
    expect(human.stdout).toBe(
      '[test://static/binary/3, application/octet-stream, 8 bytes]\n  03 04 05 06 07 08 09 0a\n',
    );
    const json = await mcp(['read', 'test://static/binary/1', '--json']);
    expect(JSON.parse(json.stdout).contents[0].blob).toBe(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]).toString('base64'));
  });

  it('refuses resources/read before sending when the server lacks the capability', async () => {
    const { code, stdout, stderr } = await mcp(['read', 'test://static/text/1'], ['--profile', 'minimal']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('mcp: resources/read: the server did not declare the "resources" capability\n');
  });

  it('renders a prompt with its arguments, each message under its role', async () => {
    const { code, stdout } = await mcp(['prompt', 'greeting', '{"name": "Ada"}']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^user\n {2}Hello, Ada!$/m);
  });
});

describe('mcp errors and lifecycle', () => {
  it('names a command that cannot start in one line and exits 1', async () => {
    const stderr = capture();
    const code = await run(['inspect', '--', 'nonexistent-cmd-for-mcp-test', '--flag'], { stdout: capture(), stderr });
    expect(code).toBe(1);
    expect(stderr.text).toBe('mcp: could not start "nonexistent-cmd-for-mcp-test --flag": no such command (ENOENT)\n');
  });

  it('rejects arguments that are not JSON with exit 2, before spawning anything', async () => {
    const stderr = capture();
    const code = await run(['call', 'echo', '{text:', '--', 'nonexistent-cmd-for-mcp-test'], {
      stdout: capture(),
      stderr,
    });
    expect(code).toBe(2);
    expect(stderr.text).toMatch(/^mcp: arguments are not valid JSON: .+\(try mcp --help\)\n$/);
  });

  it.each([
    [
      ['frobnicate', '--', 'node'],
      'unknown subcommand "frobnicate"; expected inspect, call, read, prompt, complete or bridge',
    ],
    [['inspect'], 'missing server: put its command after "--" (mcp inspect -- node server.mjs) or give --url <url>'],
    [[], 'missing subcommand (inspect, call, read, prompt, complete or bridge)'],
    [
      ['read', '--', 'node'],
      'usage: mcp read <uri | uri template> [name=value…] [--out <file> [--force]] [options] (-- <command…> | --url <url>)',
    ],
    [
      ['inspect', 'extra', '--url', 'https://example.com/mcp'],
      'usage: mcp inspect [options] (-- <command…> | --url <url>)',
    ],
    [['call', 'echo', '--out', 'x', '--', 'node'], '--out and --force go with mcp read'],
    [['bridge', 'https://example.com/mcp', '--force'], '--out and --force go with mcp read'],
    [['read', 'test://x', '--force', '--', 'node'], '--force lets --out replace a file; give --out'],
    [['call', 'echo', '[1]', '--', 'node'], 'arguments must be a JSON object, got an array'],
    [['prompt', 'greeting', '{"name": 7}', '--', 'node'], 'prompt arguments must be strings; "name" is number'],
    [['inspect', '--timeout', 'soon', '--', 'node'], '--timeout takes a positive number of milliseconds'],
    [['inspect', '--env', 'NOVALUE', '--', 'node'], '--env takes KEY=VALUE'],
    [['inspect', '--url', 'https://example.com/mcp', '--env', 'K=V'], '--env and --inherit-env set the environment'],
    [['inspect', '--url', 'https://example.com/mcp', '--inherit-env'], '--env and --inherit-env set the environment'],
    [['inspect', '--bogus', '--', 'node'], "unknown option '--bogus'"],
  ])('treats %j as a usage error (exit 2)', async (argv, message) => {
    const stderr = capture();
    expect(await run(argv, { stdout: capture(), stderr })).toBe(2);
    expect(stderr.text).toContain(`mcp: ${message}`);
    expect(stderr.text.trimEnd().split('\n')).toHaveLength(1);
  });

  it('prints its version and help without a server', async () => {
    const stdout = capture();
    expect(await run(['--version'], { stdout, stderr: capture() })).toBe(0);
    expect(stdout.text).toBe(`${version}\n`);
    const help = capture();
    expect(await run(['--help'], { stdout: help, stderr: capture() })).toBe(0);
    expect(help.text).toContain('mcp call <tool>');
    expect(help.text.split('\n')[0]).toBe('mcp: talk to an MCP server over stdio or HTTP from the command line');
  });

  it('on interrupt stops the server child, passed --env, and exits 130', async () => {
    // A server that never answers: it reports its pid and env on stderr, and exits when stdin closes.
    const script =
      'console.error(process.pid, process.env.MCP_CLI_TEST); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));';
    const controller = new AbortController();
    let pid = 0;
    const stderr = capture((text) => {
      const match = /^(\d+) from-the-cli$/m.exec(text);
      if (match && !pid) {
        pid = Number(match[1]);
        controller.abort();
      }
    });
    const argv = ['inspect', '--env', 'MCP_CLI_TEST=from-the-cli', '--', process.execPath, '-e', script];
    const code = await run(argv, { stdout: capture(), stderr, signal: controller.signal });
    expect(code).toBe(130);
    expect(stderr.text.endsWith('mcp: interrupted\n')).toBe(true);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow(); // gone: no orphan
  });
});

describe('terminal output', () => {
  it('uses color only on a TTY without NO_COLOR', () => {
    const write = () => true;
    expect(styleFor({ write, isTTY: true }, {}).bold('x')).toContain('\x1b[');
    expect(styleFor({ write, isTTY: true }, { NO_COLOR: '1' }).bold('x')).toBe('x');
    expect(styleFor({ write, isTTY: false }, {}).bold('x')).toBe('x');
  });

  it('summarises JSON Schema types the way a reader expects', () => {
    expect(typeName({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(typeName({ type: ['string', 'null'] })).toBe('string|null');
    expect(typeName({ anyOf: [{ type: 'integer' }, { enum: ['a', 'b'] }] })).toBe('integer|"a"|"b"');
    expect(typeName({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })).toBe(
      '(string|number)[]',
    );
    expect(typeName({ $ref: '#/$defs/Point' })).toBe('Point');
    expect(typeName({})).toBe('any');
    expect(summariseProperties({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] })).toBe(
      'q: string*',
    );
  });
});

describe.skipIf(!existsSync(bin))('the built mcp bin', () => {
  const exec = promisify(execFile);

  it('prints its version', async () => {
    const { stdout } = await exec(process.execPath, [bin, '--version']);
    expect(stdout).toBe(`${version}\n`);
  });

  it('calls a tool on the reference server end to end', async () => {
    const { stdout } = await exec(process.execPath, [
      bin,
      'call',
      'echo',
      '{"text":"héllo"}',
      '--',
      process.execPath,
      referenceServer,
    ]);
    expect(stdout).toBe('héllo\n');
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { LimitError } from '@mcp/core';
import { afterEach, describe, expect, it } from 'vitest';
import { toJson } from '../src/cli/format.js';
import { run } from '../src/cli/run.js';
import { terminalSafe } from '../src/cli/terminal-text.js';

const server = fileURLToPath(new URL('./fixtures/terminal-escapes-server.mjs', import.meta.url));
const hostile = fileURLToPath(new URL('../../../test-servers/hostile/stdio.mjs', import.meta.url));
const deepJson = [process.execPath, hostile, '--misbehave', 'deep-json'];
const ELIDED = '"[nested deeper than 100 levels]"';
const REFUSED =
  'mcp: the answer nests more than 100 levels deep, past what --json prints (without --json, deeper levels show as [nested deeper than 100 levels]) (--json depth: 100)\n';
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** C0 controls but newline and tab, DEL, C1, bidi overrides and isolates: what a terminal may act on instead of printing. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The SGR sequences `mcp` itself colors with on a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const OUR_COLORS = /\u001b\[(?:1|2|22|36|39)m/g;

function capture() {
  const chunks: string[] = [];
  return {
    write: (chunk: string) => chunks.push(chunk) > 0,
    get text() {
      return chunks.join('');
    },
  };
}

/** Runs the CLI in-process against a server (the fixture's by default); `isTTY` makes it color its own output. */
async function mcp(argv: string[], tty = false, target = [process.execPath, server]) {
  const stdout = Object.assign(capture(), { isTTY: tty });
  const stderr = capture();
  const code = await run([...argv, '--', ...target], { stdout, stderr, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('mcp prints what a server sent without its terminal control characters', () => {
  it('call: tool text, structured content, log messages and server stderr', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'pwn']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(']0;pwned[2Jhi');
    expect(stdout).toContain('"key31m]0;pwned[2Jhi": "value31m]0;pwned[2Jhi"');
    expect(stdout).not.toMatch(CONTROL);
    expect(stderr).toContain('stderr31m]0;pwned[2Jhi');
    expect(stderr).toContain('server log [warning] logger31m]0;pwned[2Jhi: log31m]0;pwned[2Jhi');
    expect(stderr).not.toMatch(CONTROL);
  });

  it('inspect: server info, instructions, descriptions, names and schema keys', async () => {
    const { code, stdout, stderr } = await mcp(['inspect']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('escapes31m]0;pwned[2Jhi');
    for (const text of ['instructions31m', 'tool description31m', 'resource31m', 'prompt description31m', 'arg31m']) {
      expect(stdout).toContain(text);
    }
    expect(stdout).not.toMatch(CONTROL);
    expect(stderr).not.toMatch(CONTROL);
  });

  it('inspect: multi-line instructions keep their lines, and lose CRs, escapes and bidi overrides', async () => {
    const { code, stdout } = await mcp(['inspect']);
    expect(code).toBe(0);
    const start = stdout.indexOf('Instructions\n');
    const section = stdout.slice(start, stdout.indexOf('\nTools'));
    expect(section.split('\n')).toEqual([
      'Instructions',
      '  instructions31m]0;pwned[2Jhi',
      '  second line evil isolated',
      '',
      '    third[2K line',
      '',
    ]);
    const json = await mcp(['inspect', '--json']);
    expect(json.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(json.stdout).instructions).toContain('second line \u202eevil\u202c \u2067isolated\u2069');
  });

  it('keeps its own colors on a terminal while dropping the server sequences', async () => {
    const { stdout } = await mcp(['inspect'], true);
    expect(stdout.split('\n')[0]).toBe('\u001b[1mescapes31m]0;pwned[2Jhi\u001b[22m');
    expect(stdout.replace(OUR_COLORS, '')).not.toMatch(CONTROL);
  });

  it('read and prompt: resource text, MIME type, prompt description and messages', async () => {
    const read = await mcp(['read', 'test://escapes']);
    expect(read.code).toBe(0);
    expect(read.stdout).toBe('[test://escapes, text/plain]0;pwned[2Jhi]\nresource text31m]0;pwned[2Jhi\n');
    const prompt = await mcp(['prompt', 'greet']);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toBe('prompt description31m]0;pwned[2Jhi\n\nuser\n  prompt text31m]0;pwned[2Jhi\n');
  });

  it('an error message from the server', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'boom']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/^mcp: .*boom31m\]0;pwned\[2Jhi/);
    expect(stderr).not.toMatch(CONTROL);
  });

  it('--json escapes them instead, so the data stays exact', async () => {
    const { code, stdout } = await mcp(['call', 'pwn', '--json']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(CONTROL);
    const result = JSON.parse(stdout);
    expect(result.content[0].text).toBe('\u001b]0;pwned\u0007\u001b[2Jhi');
    expect(Object.values(result.structuredContent)).toEqual(['value\u009b31m\u007f\r\u001b]0;pwned\u0007\u001b[2Jhi']);
  });
});

describe('the environment mcp gives a server', () => {
  const saved = process.env.MCP_TEST_SECRET;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_TEST_SECRET;
    else process.env.MCP_TEST_SECRET = saved;
  });

  async function serverEnv(flags: string[]): Promise<Record<string, string>> {
    process.env.MCP_TEST_SECRET = 'sk-parent-secret';
    const { code, stdout } = await mcp(['call', 'env', '--json', ...flags]);
    expect(code).toBe(0);
    return JSON.parse(JSON.parse(stdout).content[0].text);
  }

  it('is PATH and the like plus --env, not our secrets', async () => {
    const env = await serverEnv(['--env', 'MCP_TEST_KEY=from the cli', '--env', 'MCP_TEST_EMPTY=']);
    expect(env.MCP_TEST_KEY).toBe('from the cli');
    expect(env.MCP_TEST_EMPTY).toBe('');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env).not.toHaveProperty('MCP_TEST_SECRET');
  });

  it('is all of ours with --inherit-env', async () => {
    const env = await serverEnv(['--inherit-env', '--env', 'MCP_TEST_KEY=k']);
    expect(env.MCP_TEST_SECRET).toBe('sk-parent-secret');
    expect(env.MCP_TEST_KEY).toBe('k');
  });
});

/** Spaces before the deepest `[` of the terminal view: two per level shown. */
function deepestIndent(stdout: string): number {
  return Math.max(...stdout.split('\n').map((line) => (line.trimEnd().endsWith('[') ? line.search(/\S/) : 0)));
}

describe('mcp call on an answer nested 100,000 levels deep', () => {
  it('prints the text and structured content down to 100 levels, and the rest as a marker', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'hostile'], false, deepJson);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('deep');
    expect(stdout).toContain('structuredContent:');
    expect(stdout.match(new RegExp(ELIDED.replace(/[[\]]/g, '\\$&'), 'g'))).toHaveLength(1);
    // The result is level 1 and structuredContent level 2: its `value` shows 98 levels of arrays.
    expect(deepestIndent(stdout)).toBe(2 * 98);
    expect(stdout.length).toBeLessThan(100_000);
  });

  it('--json refuses it with one readable line and exit 1, printing nothing half-done', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'hostile', '--json'], false, deepJson);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(REFUSED);
  });
});

describe('mcp on a log message nested 100,000 levels deep', () => {
  it('prints the log line down to 100 levels and the answer after it (the line was lost to a RangeError)', async () => {
    const deepLog = fileURLToPath(new URL('./fixtures/deep-log-server.mjs', import.meta.url));
    const { code, stdout, stderr } = await mcp(['call', 'anything'], false, [process.execPath, deepLog]);
    expect(code).toBe(0);
    expect(stdout).toBe('after the log\n');
    const nested = `${'['.repeat(100)}${ELIDED}${']'.repeat(100)}`;
    expect(stderr).toBe(`server log [info] deep: ${nested}\n`);
  });
});

describe('the print depth bound', () => {
  /** `levels` arrays around 1. */
  const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`);

  it('--json prints data 100 levels deep unchanged, and refuses 101 with a LimitError naming the bound', () => {
    expect(JSON.parse(toJson(nested(100)))).toEqual(nested(100));
    expect(() => toJson(nested(101))).toThrow(LimitError);
    expect(() => toJson({ a: nested(100) })).toThrow(LimitError);
    const refusal = (() => {
      try {
        toJson(nested(101));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ limit: '--json depth', value: 100 });
  });

  it('the terminal view keeps 100 levels and replaces the 101st, without a stack overflow at 100,000', () => {
    expect(terminalSafe(nested(100))).toEqual(nested(100));
    expect(terminalSafe(nested(101))).toEqual(JSON.parse(`${'['.repeat(100)}${ELIDED}${']'.repeat(100)}`));
    expect(() => terminalSafe(nested(100_000))).not.toThrow();
  });
});

describe.skipIf(!existsSync(bin))('the built mcp bin, as a process of its own', () => {
  const exec = promisify(execFile);
  /** `mcp <argv> -- node <fixture>` with a secret in mcp's own environment. */
  const mcpBin = (argv: string[]) =>
    exec(process.execPath, [bin, ...argv, '--', process.execPath, server], {
      env: { ...process.env, MCP_TEST_SECRET: 'sk-parent-secret' },
    });

  it('prints tool text without control characters', async () => {
    const { stdout, stderr } = await mcpBin(['call', 'pwn']);
    expect(stdout.split('\n')[0]).toBe(']0;pwned[2Jhi');
    expect(stdout + stderr).not.toMatch(CONTROL);
  });

  it('passes --env KEY=VALUE and keeps its secrets, unless --inherit-env', async () => {
    const scoped = JSON.parse(
      JSON.parse((await mcpBin(['call', 'env', '--json', '--env', 'K=V'])).stdout).content[0].text,
    );
    expect(scoped.K).toBe('V');
    expect(scoped).not.toHaveProperty('MCP_TEST_SECRET');
    const inherited = JSON.parse(
      JSON.parse((await mcpBin(['call', 'env', '--json', '--inherit-env'])).stdout).content[0].text,
    );
    expect(inherited.MCP_TEST_SECRET).toBe('sk-parent-secret');
  });

  it('prints an answer nested 100,000 levels deep down to 100 levels, and --json refuses it in words (exit 1)', async () => {
    const { stdout } = await exec(process.execPath, [bin, 'call', 'hostile', '--', ...deepJson], {
      maxBuffer: 1 << 20,
    });
    expect(stdout.split('\n')[0]).toBe('deep');
    expect(stdout).toContain(ELIDED);
    const refused = await exec(process.execPath, [bin, 'call', 'hostile', '--json', '--', ...deepJson]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: REFUSED });
  });
});

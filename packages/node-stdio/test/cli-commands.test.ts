/**
 * The commands and operands beyond one call: `mcp complete`, `mcp read --out`,
 * a resource template read with its arguments, arguments from a file or stdin,
 * and the one rule for binary data in `--json`. Against the reference server
 * over stdio (test-servers/README.md).
 */
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_BYTES } from '../src/cli/json-arguments.js';
import { run } from '../src/cli/run.js';

const referenceServer = fileURLToPath(new URL('../../../test-servers/stdio.mjs', import.meta.url));

/** Runs the CLI in-process against the reference server; `stdin` feeds `@-`. */
async function mcp(argv: string[], stdin?: string) {
  let stdout = '';
  let stderr = '';
  const code = await run([...argv, '--', process.execPath, referenceServer], {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]),
  });
  return { code, stdout, stderr };
}

/** `argv` is refused with `message` and exit status 2. */
async function usageError(argv: string[], message: string) {
  const { code, stderr } = await mcp(argv);
  expect(code).toBe(2);
  expect(stderr).toContain(`mcp: ${message}`);
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('mcp complete', () => {
  it('prints the values for a prompt argument one a line, and the whole completion with --json', async () => {
    expect(await mcp(['complete', 'prompt', 'greeting', 'name', 'a'])).toEqual({
      code: 0,
      stdout: 'alice\nalex\n',
      stderr: '',
    });
    const json = await mcp(['complete', 'resource', 'test://template/{id}', 'id', 'al', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ values: ['alpha', 'alpha2'], total: 2, hasMore: false });
  });

  it('says so when nothing matches, and reports an unknown prompt as the server error', async () => {
    expect((await mcp(['complete', 'prompt', 'greeting', 'name', 'zz'])).stdout).toBe('(no values)\n');
    const unknown = await mcp(['complete', 'prompt', 'no-such-prompt', 'name']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^mcp: completion\/complete: .*\(-32602\)\n$/);
  });

  it.each([
    [['complete', 'tool', 'x', 'y'], 'mcp complete takes "prompt <name>" or "resource <uri template>", got "tool"'],
    [['complete', 'prompt', 'greeting'], 'usage: mcp complete (prompt <name> | resource <uri template>)'],
    [['complete', 'prompt', 'greeting', 'name', 'a', '{"style": 1}'], 'context arguments must be strings'],
  ])('treats %j as a usage error', usageError);
});

describe('mcp read --out', () => {
  it("writes a blob's decoded bytes, and a text as UTF-8, to the file named", async () => {
    const file = join(dir, 'binary.bin');
    const { code, stdout } = await mcp(['read', 'test://static/binary/3', '--out', file]);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote 8 bytes of test://static/binary/3 to ${file}\n`);
    expect([...(await readFile(file))]).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    const text = join(dir, 'text.txt');
    const json = await mcp(['read', 'test://static/text/2', '--out', text, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      uri: 'test://static/text/2',
      mimeType: 'text/plain',
      file: text,
      bytes: 10,
    });
    expect(await readFile(text, 'utf8')).toBe('Resource 2');
  });

  it('keeps an existing file unless --force, a symbolic link there included', async () => {
    const file = join(dir, 'kept.bin');
    await writeFile(file, 'mine');
    const refused = await mcp(['read', 'test://static/binary/1', '--out', file]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `mcp: ${file} exists; add --force to replace it\n` });
    expect(await readFile(file, 'utf8')).toBe('mine');

    const target = join(dir, 'target.txt');
    await writeFile(target, 'untouched');
    const link = join(dir, 'link.bin');
    await symlink(target, link);
    expect((await mcp(['read', 'test://static/binary/1', '--out', link])).code).toBe(1);
    expect(await readFile(target, 'utf8')).toBe('untouched');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);

    expect((await mcp(['read', 'test://static/binary/1', '--out', file, '--force'])).code).toBe(0);
    expect([...(await readFile(file))]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('says why it cannot write, in one line', async () => {
    const file = join(dir, 'no-such-dir', 'x.bin');
    const { code, stderr } = await mcp(['read', 'test://static/binary/1', '--out', file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^mcp: cannot write ${file.replace(/[\\/.]/g, '\\$&')}: ENOENT`));
  });
});

describe('mcp read of a resource template', () => {
  it('puts each name=value into its {name}, percent-encoded', async () => {
    const { code, stdout } = await mcp(['read', 'test://template/{id}', 'id=a b/c?d#e']);
    expect(code).toBe(0);
    expect(stdout).toBe('[test://template/a%20b%2Fc%3Fd%23e, text/plain]\nItem a b/c?d#e\n');
    const json = await mcp(['read', 'test://template/{id}', "id=it's(*)!", '--json']);
    expect(JSON.parse(json.stdout).contents[0].uri).toBe('test://template/it%27s%28%2A%29%21');
  });

  it.each([
    [['read', 'test://template/{id}'], 'the template needs id=<value>'],
    [['read', 'test://template/{id}', 'id=1', 'other=2'], 'the template has no variable other'],
    [['read', 'test://template/{id}', 'id=1', 'id=2'], 'template argument "id" given twice'],
    [
      ['read', 'test://template/{+id}', 'id=1'],
      '{+id}: only simple {name} expressions are expanded (RFC 6570 level 1)',
    ],
    [['read', 'test://template/{a,b}', 'a=1', 'b=2'], '{a,b}: only simple {name} expressions'],
    [['read', 'test://template/{id', 'id=1'], 'unbalanced braces'],
    [['read', 'test://template/{id}', 'id'], 'template arguments are name=value, got "id"'],
    [['read', 'test://static/text/1', 'id=1'], '"test://static/text/1" is no URI template; it takes no name=value'],
  ])('treats %j as a usage error', usageError);
});

describe('arguments from a file (@path) or stdin (@-)', () => {
  it('reads tool arguments from a file and prompt arguments from stdin', async () => {
    const file = join(dir, 'args.json');
    await writeFile(file, '{"text": "from a file"}');
    expect((await mcp(['call', 'echo', `@${file}`])).stdout).toBe('from a file\n');
    const prompt = await mcp(['prompt', 'greeting', '@-'], '{"name": "Ada"}\n');
    expect(prompt.stdout).toMatch(/^user\n {2}Hello, Ada!$/m);
  });

  it(`refuses more than MAX_ARGUMENT_BYTES (${MAX_ARGUMENT_BYTES}) from either, and a file it cannot read`, async () => {
    const big = `{"text": "${'x'.repeat(MAX_ARGUMENT_BYTES)}"}`;
    const file = join(dir, 'big.json');
    await writeFile(file, big);
    const fromFile = await mcp(['call', 'echo', `@${file}`]);
    expect(fromFile).toEqual({
      code: 2,
      stdout: '',
      stderr: `mcp: @${file} holds more than ${MAX_ARGUMENT_BYTES} bytes of arguments (try mcp --help)\n`,
    });
    const fromStdin = await mcp(['call', 'echo', '@-'], big);
    expect(fromStdin.stderr).toContain(`mcp: stdin (@-) holds more than ${MAX_ARGUMENT_BYTES} bytes`);
    // Exactly the bound is still read.
    await writeFile(file, `{"text": "${'x'.repeat(MAX_ARGUMENT_BYTES - 12)}"}`);
    expect((await mcp(['call', 'echo', `@${file}`, '--json'])).code).toBe(0);

    const missing = await mcp(['call', 'echo', `@${join(dir, 'absent.json')}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^mcp: cannot read @.*absent\.json: ENOENT/);
    const notJson = await mcp(['prompt', 'greeting', '@-'], 'name=Ada');
    expect(notJson.stderr).toMatch(/^mcp: arguments from stdin \(@-\) are not valid JSON: /);
  });
});

describe('@- on a stdin that never ends', () => {
  it('stops reading on interrupt and exits 130, the server never started', async () => {
    const controller = new AbortController();
    let stderr = '';
    const stdin = new Readable({ read() {} });
    stdin.push('{"text": ');
    setTimeout(() => controller.abort(), 100);
    const code = await run(['call', 'echo', '@-', '--', 'nonexistent-cmd-for-mcp-test'], {
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      stdin,
      signal: controller.signal,
    });
    expect(code).toBe(130);
    expect(stderr).toBe('mcp: interrupted\n');
    expect(stdin.destroyed).toBe(true);
  });
});

describe('binary data in --json', () => {
  it('is a base64 string everywhere, as on the wire: tool content, prompt content and blobs', async () => {
    const tool = JSON.parse((await mcp(['call', 'mixed-content', '--json'])).stdout);
    const toolImage = tool.content.find((part: { type: string }) => part.type === 'image');
    expect(typeof toolImage.data).toBe('string');
    expect(Buffer.from(toolImage.data, 'base64')).toHaveLength(69);

    const prompt = JSON.parse((await mcp(['prompt', 'with-resource', '--json'])).stdout);
    // Each message's content is an array, even where the server sent one part.
    expect(prompt.messages.map((message: { content: unknown[] }) => message.content.length)).toEqual([1, 1, 1]);
    const promptImage = prompt.messages[1].content[0];
    expect(promptImage).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(promptImage.data).toBe(toolImage.data);

    const blob = JSON.parse((await mcp(['read', 'test://static/binary/2', '--json'])).stdout).contents[0].blob;
    expect(blob).toBe(Buffer.from([2, 3, 4, 5, 6, 7, 8, 9]).toString('base64'));
  });
});

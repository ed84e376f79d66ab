/**
 * The built `mcp` bin in a real pseudo-terminal (tmux), against a real server
 * on the official SDK (test-servers/interactive/server.mjs) that reports
 * progress and sends elicitation and sampling requests; and the same bin with
 * pipes, where nothing is asked. stdout goes to a file in the terminal runs,
 * so each result is read apart from what the terminal showed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Pane } from './tmux.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const bin = path('../../dist/cli.js');
const server = path('../../../../test-servers/interactive/server.mjs');
const referenceServer = path('../../../../test-servers/stdio.mjs');
const exec = promisify(execFile);

/** The argv of `mcp call <tool> <args> [flags] -- node server.mjs`. */
const mcpCall = (tool: string, args: unknown, flags: string[] = []) => [
  process.execPath,
  bin,
  'call',
  tool,
  JSON.stringify(args),
  ...flags,
  '--',
  process.execPath,
  server,
];

/** What a tool of the test server answered: its text is the JSON of what the client sent back. */
const answered = (stdout: string) => JSON.parse(stdout.trim()) as Record<string, unknown>;

/** The same command with pipes for stdin, stdout and stderr: not a terminal. */
async function piped(tool: string, args: unknown, flags: string[] = []) {
  const [node = '', ...rest] = mcpCall(tool, args, flags);
  return exec(node, rest, { timeout: 15_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

// Sequences a hostile server puts in its text: set the window title, clear the screen, red.
const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\x1b[0m\r\x9b1;1H';
const INERT = ']0;pwned[2J[31mRED[0m1;1H';

describe.skipIf(!existsSync(bin))('mcp at a terminal', () => {
  let pane: Pane | undefined;
  const start = async (argv: string[], size?: { width: number; height: number }) => {
    pane = await Pane.start(argv, size);
    return pane;
  };
  afterEach(async () => {
    await pane?.kill();
    pane = undefined;
  });

  describe('progress', () => {
    it('draws one bar line in place while the tool runs and erases it before the result', async () => {
      const p = await start(mcpCall('progress', { steps: 30, intervalMs: 60 }));
      const during = await p.waitFor(/\[#+-*\] \d+\/30 step \d+ of 30/);
      // Redrawn in place: one progress line on the screen, never a list of them.
      expect(during.match(/\/30 step/g)).toHaveLength(1);
      expect(await p.exitCode()).toBe(0);
      const after = await p.screen();
      expect(after).not.toMatch(/\/30|step \d/);
      expect(p.stdout()).toBe('done after 30 steps\n');
    });

    it('shows a count and a turning mark when the server gives no total', async () => {
      const p = await start(mcpCall('progress', { steps: 30, intervalMs: 60, total: false }));
      const during = await p.waitFor(/^[|/\\-] \d+ step \d+ of 30$/m);
      expect(during).not.toContain('[');
      expect(await p.exitCode()).toBe(0);
    });

    it("cuts the server's message to the terminal width and shows its escape sequences inert", async () => {
      const message = `${HOSTILE} ${'long '.repeat(40)}end`;
      const p = await start(mcpCall('progress', { steps: 20, intervalMs: 80, message }), { width: 60, height: 20 });
      const during = await p.waitFor(/\d+\/20/);
      const line = during.split('\n').find((text) => text.includes('/20')) ?? '';
      expect(line).toContain(INERT);
      expect(line.endsWith('…')).toBe(true);
      expect(line.length).toBeLessThan(60);
      expect(await p.title()).not.toBe('pwned');
      expect(await p.exitCode()).toBe(0);
    });

    it('--quiet shows no progress', async () => {
      const p = await start(mcpCall('progress', { steps: 10, intervalMs: 30 }, ['--quiet']));
      expect(await p.exitCode()).toBe(0);
      expect(await p.screen()).toBe('[exit 0]');
      expect(p.stdout()).toBe('done after 10 steps\n');
    });
  });

  describe('elicitation', () => {
    it('prompts for every field type and sends what was typed', async () => {
      const requestedSchema = {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', title: 'Email', description: 'Where we write to you' },
          nick: { type: 'string', maxLength: 8, default: 'ada' },
          age: { type: 'integer', minimum: 0, maximum: 150 },
          ratio: { type: 'number', minimum: 0, maximum: 1 },
          subscribe: { type: 'boolean', default: true },
          size: { type: 'string', enum: ['s', 'm', 'l'], enumNames: ['Small', 'Medium', 'Large'] },
          color: {
            type: 'string',
            title: 'Colour',
            oneOf: [
              { const: '#f00', title: 'Red' },
              { const: '#0f0', title: 'Green' },
            ],
          },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
          pets: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'cat', title: 'Cat' },
                { const: 'dog', title: 'Dog' },
              ],
            },
          },
        },
        required: ['email', 'age'],
      };
      const p = await start(mcpCall('ask', { message: 'Sign up', requestedSchema }));
      await p.waitFor(/The server asks for input: Sign up[\s\S]*Email \(email, required\)\n\s+Where we write to you/);
      await p.type('ada@example.com');
      await p.waitFor(/nick> ada$/m); // the default, on the line to keep
      await p.type('');
      await p.waitFor(/age>$/m);
      await p.type('36');
      await p.waitFor(/ratio>$/m);
      await p.type('0.5');
      await p.waitFor(/subscribe> y$/m);
      await p.keys('C-u');
      await p.type('n');
      await p.waitFor(/1\) Small \(s\)\n\s+2\) Medium \(m\)[\s\S]*size>$/m);
      await p.type('2');
      await p.waitFor(/1\) Red \(#f00\)[\s\S]*color>$/m);
      await p.type('green');
      await p.waitFor(/tags>$/m);
      await p.type('a, c');
      await p.waitFor(/1\) Cat \(cat\)[\s\S]*pets>$/m);
      await p.type('dog');
      await p.waitFor(/Your answer:[\s\S]*Send it\? \[Y\/n\] \(n declines, c cancels\):$/m);
      await p.type('a');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({
        action: 'accept',
        content: {
          email: 'ada@example.com',
          nick: 'ada',
          age: 36,
          ratio: 0.5,
          subscribe: false,
          size: 'm',
          color: '#0f0',
          tags: ['a', 'c'],
          pets: ['dog'],
        },
      });
    });

    it('asks again for a required field left empty and for invalid input, and leaves out optional ones', async () => {
      const requestedSchema = {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 2 },
          when: { type: 'string', format: 'date' },
          count: { type: 'integer', maximum: 10 },
        },
        required: ['name', 'count'],
      };
      const p = await start(mcpCall('ask', { requestedSchema }));
      await p.waitFor(/name>$/m);
      await p.type('');
      await p.waitFor(/an answer is required; try again\n\s+name>$/m);
      await p.type('A');
      // Asked again on an empty line: what is typed next is the whole answer, not added to the refused one.
      await p.waitFor(/at least 2 characters, got 1; try again\n\s+name>$/m);
      await p.type('Al');
      await p.waitFor(/when>$/m);
      await p.type('2026-02-30');
      await p.waitFor(/not a date \(YYYY-MM-DD\); try again\n\s+when>$/m);
      await p.type('');
      await p.waitFor(/count>$/m);
      await p.type('11');
      await p.waitFor(/at most 10; try again\n\s+count>$/m);
      await p.type('7');
      await p.waitFor(/Send it\? \[Y\/n\]/);
      // Enter takes the default: accept.
      await p.type('');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'accept', content: { name: 'Al', count: 7 } });
    });

    it('after 4 refused answers asks whether to retry the field, and cancels at the bound (12)', async () => {
      const requestedSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
      let p = await start(mcpCall('ask', { requestedSchema }));
      for (let i = 0; i < 4; i++) {
        await p.waitFor(new RegExp(`(n>[\\s\\S]*){${i + 1}}`));
        await p.type('x');
      }
      await p.waitFor(/4 answers refused\n\s+\[r\]etry n or \[c\]ancel the form:/);
      await p.type('r');
      await p.waitFor(/the form: r\n\s+n>$/m);
      await p.type('42');
      await p.waitFor(/Send it\?/);
      await p.type('y');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'accept', content: { n: 42 } });
      await p.kill();

      p = await start(mcpCall('ask', { requestedSchema }));
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 4; i++) {
          await p.waitFor(new RegExp(`(n>[\\s\\S]*){${round * 4 + i + 1}}`));
          await p.type('x');
        }
        if (round < 2) {
          await p.waitFor(new RegExp(`(the form:[\\s\\S]*){${round + 1}}`));
          await p.type('r');
        }
      }
      await p.waitFor(/12 answers refused, no more tries: cancelled/);
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'cancel' });
    });

    it('sends decline, and cancel when input ends (Ctrl+D)', async () => {
      const requestedSchema = { type: 'object', properties: { name: { type: 'string' } } };
      let p = await start(mcpCall('ask', { requestedSchema }));
      await p.waitFor(/name>$/m);
      await p.type('Ada');
      await p.waitFor(/Send it\?/);
      await p.type('d');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'decline' });
      await p.kill();

      p = await start(mcpCall('ask', { requestedSchema }));
      await p.waitFor(/name>$/m);
      await p.keys('C-d');
      await p.waitFor(/Input ended: cancelled\./);
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'cancel' });
    });

    it('puts the progress line away while a prompt is on the terminal', async () => {
      const requestedSchema = { type: 'object', properties: { name: { type: 'string' } } };
      const p = await start(mcpCall('ask', { requestedSchema, progressFirst: true }));
      const screen = await p.waitFor(/name>$/m);
      expect(screen).not.toMatch(/1\/2|asking/);
      await p.type('Ada');
      await p.waitFor(/Send it\?/);
      await p.type('a');
      expect(await p.exitCode()).toBe(0);
      expect(await p.screen()).not.toMatch(/1\/2|asking/);
      expect(answered(p.stdout())).toEqual({ action: 'accept', content: { name: 'Ada' } });
    });

    it('asks two elicitations that arrive together one after the other', async () => {
      const requestedSchema = { type: 'object', properties: { name: { type: 'string' } } };
      const p = await start(mcpCall('ask-twice', { requestedSchema }));
      const first = await p.waitFor(/name>$/m);
      // Only one form is on the terminal; the other waits its turn.
      expect(first.match(/The server asks for input/g)).toHaveLength(1);
      const opening = /The server asks for input: (first|second)/.exec(first)?.[1];
      await p.type('one');
      await p.waitFor(/Send it\?/);
      await p.type('a');
      const second = await p.waitFor(/(The server asks for input[\s\S]*){2}name>$/);
      expect(second).toContain(`The server asks for input: ${opening === 'first' ? 'second' : 'first'}`);
      await p.type('two');
      await p.waitFor(/(Send it\?[\s\S]*){2}/);
      await p.type('d');
      expect(await p.exitCode()).toBe(0);
      const answers = JSON.parse(p.stdout()) as unknown[];
      const byMessage = opening === 'first' ? answers : [...answers].reverse();
      expect(byMessage).toEqual([{ action: 'accept', content: { name: 'one' } }, { action: 'decline' }]);
    });

    it('asks the same way in the 2026-07-28 era, where the request comes as an input round', async () => {
      // The reference server on the v2 SDK speaks 2026-07-28 to this client; its `elicit` tool asks for a name.
      const v2 = ['--', process.execPath, referenceServer, '--sdk', 'v2'];
      const { stdout: inspection } = await exec(process.execPath, [bin, 'inspect', ...v2], { timeout: 15_000 });
      expect(inspection).toMatch(/^ {2}protocol +2026-07-28$/m);
      const p = await start([process.execPath, bin, 'call', 'elicit', ...v2]);
      await p.waitFor(/The server asks for input: What is your name\?\n\s+name \(required\)\n\s+name>$/);
      await p.type('Ada');
      await p.waitFor(/Send it\?/);
      await p.type('a');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'accept', content: { name: 'Ada' } });
    });

    it('Ctrl+C at a prompt stops the command as anywhere else (exit 130)', async () => {
      const requestedSchema = { type: 'object', properties: { name: { type: 'string' } } };
      const p = await start(mcpCall('ask', { requestedSchema }));
      await p.waitFor(/name>$/m);
      await p.keys('C-c');
      expect(await p.exitCode()).toBe(130);
      expect(await p.screen()).toMatch(/name> ?\nmcp: interrupted\n\[exit 130\]$/);
      expect(p.stdout()).toBe('');
    });

    it("shows the server's message, titles, descriptions and options inert", async () => {
      const requestedSchema = {
        type: 'object',
        properties: {
          pick: {
            type: 'string',
            title: `T${HOSTILE}`,
            description: `D${HOSTILE}`,
            oneOf: [{ const: 'x', title: `O${HOSTILE}` }],
          },
        },
      };
      const p = await start(mcpCall('ask', { message: `M${HOSTILE}`, requestedSchema }));
      const screen = await p.waitFor(/pick>$/m);
      for (const prefix of ['M', 'T', 'D', '1) O']) expect(screen).toContain(`${prefix}${INERT}`);
      expect(screen).toMatch(/^The server asks for input:/m); // nothing cleared the screen
      expect(await p.title()).not.toBe('pwned');
      await p.type('1');
      await p.waitFor(/Send it\?/);
      await p.type('a');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'accept', content: { pick: 'x' } });
    });

    it('URL mode: shows the URL and its host, and sends the consent or the refusal', async () => {
      const url = 'https://auth.example/consent?state=1';
      let p = await start(mcpCall('ask-url', { message: 'Sign in to Example', url }));
      await p.waitFor(
        /The server asks you to open a URL: Sign in to Example\n\s+https:\/\/auth\.example\/consent\?state=1\n\s+host: auth\.example\nOpen it\? \[a\]ccept, \[d\]ecline, \[c\]ancel:$/,
      );
      await p.type('a');
      await p.waitFor(/Open it in your browser/);
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'accept' });
      await p.kill();

      p = await start(mcpCall('ask-url', { url }));
      await p.waitFor(/Open it\?/);
      await p.type('d');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toEqual({ action: 'decline' });
    });
  });

  describe('sampling', () => {
    it('shows the request and refuses it without --allow-sampling: the server sees a JSON-RPC error', async () => {
      const p = await start(mcpCall('sample', { prompt: `Hi${HOSTILE}`, systemPrompt: 'Be brief' }));
      const screen = await p.waitFor(/\[exit \d+\]/);
      expect(screen).toMatch(/The server asks for a model reply \(sampling, at most 50 tokens\):/);
      expect(screen).toContain('system: Be brief');
      expect(screen).toContain(`user: Hi${INERT}`);
      expect(screen).toContain('Refused (run with --allow-sampling to answer it yourself).');
      expect(await p.title()).not.toBe('pwned');
      expect(await p.exitCode()).toBe(1); // the tool's isError result
      expect(p.stdout()).toMatch(/^-1 .*User rejected sampling request/);
    });

    it('with --allow-sampling, the reply the user types goes back as the model answer', async () => {
      const p = await start(mcpCall('sample', { prompt: 'Say hi' }, ['--allow-sampling']));
      await p.waitFor(/user: Say hi\nReply as the model \(empty refuses\):$/);
      await p.type('hello from a human');
      expect(await p.exitCode()).toBe(0);
      expect(answered(p.stdout())).toMatchObject({
        role: 'assistant',
        content: { type: 'text', text: 'hello from a human' },
        model: 'mcp-cli-user',
        stopReason: 'endTurn',
      });
    });

    it('with --allow-sampling, an empty reply refuses', async () => {
      const p = await start(mcpCall('sample', { prompt: 'Say hi' }, ['--allow-sampling']));
      await p.waitFor(/Reply as the model/);
      await p.type('');
      expect(await p.exitCode()).toBe(1);
      expect(p.stdout()).toMatch(/^-1 .*User rejected sampling request/);
    });
  });
});

describe.skipIf(!existsSync(bin))('mcp with pipes (not a terminal)', () => {
  it('writes one plain progress line per notification on stderr, none on stdout', async () => {
    const { code, stdout, stderr } = await piped('progress', { steps: 3, intervalMs: 20, message: `m${HOSTILE}` });
    expect(code).toBe(0);
    expect(stdout).toBe('done after 3 steps\n');
    expect(stderr).toBe([1, 2, 3].map((i) => `progress ${i}/3 m${INERT}\n`).join(''));
  });

  it('--quiet writes no progress', async () => {
    const { code, stderr } = await piped('progress', { steps: 3, intervalMs: 20 }, ['--quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('declines an elicitation: nobody can answer it', async () => {
    const requestedSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const { code, stdout } = await piped('ask', { requestedSchema });
    expect(code).toBe(0);
    expect(answered(stdout)).toEqual({ action: 'decline' });
  });

  it('refuses sampling, with or without --allow-sampling, and says why on stderr', async () => {
    for (const [flags, why] of [
      [[], 'run with --allow-sampling to answer it yourself'],
      [['--allow-sampling'], 'not a terminal'],
    ] as const) {
      const { code, stdout, stderr } = await piped('sample', { prompt: 'Say hi' }, [...flags]);
      expect(code).toBe(1);
      expect(stdout).toMatch(/^-1 .*User rejected sampling request/);
      expect(stderr).toContain('user: Say hi\n');
      expect(stderr).toContain(`Refused (${why}).`);
    }
  });
});

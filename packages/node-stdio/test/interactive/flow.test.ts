/**
 * The question-and-answer flows of elicitation and sampling, with the lines a
 * user would type given in advance (the terminal runs are in terminal.test.ts).
 */
import type { ElicitRequestFormParams } from '@mcp/core';
import { RpcError } from '@mcp/core';
import { describe, expect, it } from 'vitest';
import type { Asker } from '../../src/cli/interactive/asker.js';
import { answerForm, answerUrl, MAX_FIELD_RETRIES, MAX_REASKS, SEND_PROMPT } from '../../src/cli/interactive/elicit.js';
import { MAX_SHOWN_MESSAGES, samplingLines, typedReply } from '../../src/cli/interactive/sampling.js';

/** In a script of `typing`: press Enter on the line as it was put there (the default). */
const KEEP = Symbol('keep');

/** An Asker answering from `lines` in order (undefined: input ended); it fails if asked once more. */
function typing(...lines: (string | undefined | typeof KEEP)[]) {
  const said: string[] = [];
  const asked: { prompt: string; prefill: string | undefined }[] = [];
  const asker: Asker = {
    ask: async (prompt, prefill) => {
      asked.push({ prompt, prefill });
      if (lines.length === 0) throw new Error(`asked more than scripted: ${prompt}`);
      const line = lines.shift();
      return line === KEEP ? prefill : line;
    },
    say: (text) => void said.push(...text),
  };
  return { asker, said, asked, left: () => lines.length };
}

const form = (properties: Record<string, unknown>, required: string[] = []): ElicitRequestFormParams =>
  ({ message: 'Please', requestedSchema: { type: 'object', properties, required } }) as ElicitRequestFormParams;

describe('answerForm', () => {
  it('asks each field with its default on the line, then sends on accept', async () => {
    const user = typing('Ada', KEEP, 'a');
    const answer = await answerForm(
      form({ name: { type: 'string' }, age: { type: 'integer', default: 36 } }, ['name']),
      user.asker,
    );
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(user.asked.map(({ prefill }) => prefill)).toEqual(['', '36', '']);
    expect(user.said).toContain('Your answer:');
    expect(user.said).toContain('  age: 36');
  });

  it('leaves the typed content out when the user declines or cancels', async () => {
    expect(await answerForm(form({ name: { type: 'string' } }), typing('Ada', 'd').asker)).toEqual({
      action: 'decline',
    });
    expect(await answerForm(form({ name: { type: 'string' } }), typing('Ada', 'cancel').asker)).toEqual({
      action: 'cancel',
    });
  });

  it('asks a refused field again on a line holding its default, never the refused answer', async () => {
    const user = typing('x', '7', 'y');
    const answer = await answerForm(form({ n: { type: 'number' } }, ['n']), user.asker);
    expect(answer).toEqual({ action: 'accept', content: { n: 7 } });
    expect(user.asked[1]?.prefill).toBe('');
    expect(user.said).toContain('    not a number: "x"; try again');

    const withDefault = typing('ten', KEEP, 'y');
    expect(await answerForm(form({ n: { type: 'integer', default: 5 } }), withDefault.asker)).toEqual({
      action: 'accept',
      content: { n: 5 },
    });
    expect(withDefault.asked.map(({ prefill }) => prefill)).toEqual(['5', '5', '']);
  });

  it('accepts on an empty line at the final question, whose default is shown as [Y/n]', async () => {
    const user = typing('Ada', '');
    expect(await answerForm(form({ name: { type: 'string' } }), user.asker)).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
    expect(user.asked.at(-1)?.prompt).toBe(SEND_PROMPT);
    expect(SEND_PROMPT).toContain('[Y/n]');
  });

  it(`after MAX_REASKS (${MAX_REASKS}) re-asks, lets the user retry the field instead of losing the form`, async () => {
    const refusals = Array.from({ length: MAX_REASKS + 1 }, () => 'x');
    const user = typing('Ada', ...refusals, 'r', '7', '');
    const answer = await answerForm(form({ name: { type: 'string' }, n: { type: 'number' } }, ['n']), user.asker);
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', n: 7 } });
    expect(user.said).toContain(`    not a number: "x"; ${MAX_REASKS + 1} answers refused`);
    expect(user.asked[MAX_REASKS + 2]?.prompt).toBe('  [r]etry n or [c]ancel the form: ');
    expect(user.left()).toBe(0);
  });

  it('offers to skip an optional field that keeps being refused, and to cancel a required one', async () => {
    const refusals = Array.from({ length: MAX_REASKS + 1 }, () => 'x');
    const optional = typing(...refusals, 's', 'y');
    expect(await answerForm(form({ n: { type: 'number' } }), optional.asker)).toEqual({
      action: 'accept',
      content: {},
    });
    const required = typing(...refusals, 'c');
    expect(await answerForm(form({ n: { type: 'number' } }, ['n']), required.asker)).toEqual({ action: 'cancel' });
    // Skipping is no way around a required field.
    const skipRequired = typing(...refusals, 's', 'r', '1', 'y');
    expect(await answerForm(form({ n: { type: 'number' } }, ['n']), skipRequired.asker)).toEqual({
      action: 'accept',
      content: { n: 1 },
    });
    expect(skipRequired.said).toContain('  answer r or c');
  });

  it(`cancels once a field is refused through MAX_FIELD_RETRIES (${MAX_FIELD_RETRIES}) retries, without asking more`, async () => {
    const round = Array.from({ length: MAX_REASKS + 1 }, () => 'x');
    const script = [...round, ...Array.from({ length: MAX_FIELD_RETRIES }, () => ['r', ...round]).flat()];
    const user = typing(...script);
    expect(await answerForm(form({ n: { type: 'number' } }, ['n']), user.asker)).toEqual({ action: 'cancel' });
    expect(user.left()).toBe(0);
    const refused = (MAX_FIELD_RETRIES + 1) * (MAX_REASKS + 1);
    expect(user.said.at(-1)).toBe(`    not a number: "x"; ${refused} answers refused, no more tries: cancelled.`);
  });

  it(`cancels after MAX_REASKS (${MAX_REASKS}) re-asks of the final choice`, async () => {
    const user = typing('', ...Array.from({ length: MAX_REASKS + 1 }, () => 'maybe'));
    expect(await answerForm(form({ n: { type: 'number' } }), user.asker)).toEqual({ action: 'cancel' });
    expect(user.left()).toBe(0);
  });

  it('cancels when input ends, in a field or at the final choice', async () => {
    expect(await answerForm(form({ n: { type: 'number' } }), typing(undefined).asker)).toEqual({ action: 'cancel' });
    expect(await answerForm(form({ n: { type: 'number' } }), typing('1', undefined).asker)).toEqual({
      action: 'cancel',
    });
  });
});

describe('answerUrl', () => {
  const request = { mode: 'url', message: 'Sign in', url: 'https://auth.example/x', elicitationId: 'e' } as const;

  it('opens the URL on accept when it can, and only then', async () => {
    const opened: string[] = [];
    expect(await answerUrl(request, typing('y').asker, (url) => opened.push(url))).toEqual({ action: 'accept' });
    expect(await answerUrl(request, typing('n').asker, (url) => opened.push(url))).toEqual({ action: 'decline' });
    expect(opened).toEqual(['https://auth.example/x']);
  });

  it('still accepts when the browser fails to open, and says to open it by hand', async () => {
    const user = typing('a');
    const answer = await answerUrl(request, user.asker, () => {
      throw new Error('no browser');
    });
    expect(answer).toEqual({ action: 'accept' });
    expect(user.said.at(-1)).toMatch(/Could not open a browser \(Error: no browser\); open the URL yourself/);
  });
});

describe('sampling', () => {
  const request = (count: number) => ({
    maxTokens: 10,
    messages: Array.from({ length: count }, (_, i) => ({
      role: 'user' as const,
      content: { type: 'text' as const, text: `m${i}` },
    })),
  });

  it(`shows the last MAX_SHOWN_MESSAGES (${MAX_SHOWN_MESSAGES}) messages and how many are not shown`, () => {
    const lines = samplingLines(request(MAX_SHOWN_MESSAGES + 3));
    expect(lines[1]).toBe('  … 3 earlier messages not shown');
    expect(lines.slice(2)).toHaveLength(MAX_SHOWN_MESSAGES);
    expect(lines.at(-1)).toBe(`  user: m${MAX_SHOWN_MESSAGES + 2}`);
    expect(samplingLines(request(MAX_SHOWN_MESSAGES))).toHaveLength(MAX_SHOWN_MESSAGES + 1);
  });

  it('shows parts other than text by type, never their data', () => {
    const lines = samplingLines({
      maxTokens: 5,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          ],
        },
      ],
    } as never);
    expect(lines).toEqual([
      'The server asks for a model reply (sampling, at most 5 tokens):',
      '  user: look [image image/png]',
    ]);
  });

  it('refuses with -1 on an empty reply or the end of input, else sends the text as the model', async () => {
    for (const typed of ['', '  ', undefined]) {
      const error = await typedReply(typing(typed).asker).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({ code: -1, rpcMessage: 'User rejected sampling request' });
    }
    expect(await typedReply(typing('hi').asker)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'hi' },
      model: 'mcp-cli-user',
      stopReason: 'endTurn',
    });
  });
});

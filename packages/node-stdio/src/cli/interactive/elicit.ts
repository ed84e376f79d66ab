/**
 * A server's elicitation answered at the terminal: a form one field at a
 * time, then accept, decline or cancel; a URL after the user's consent.
 */
import type { ElicitRequestFormParams, ElicitRequestUrlParams, ElicitResult } from '@mcp/core';
import type { Asker } from './asker.js';
import {
  type Field,
  type FieldValue,
  fieldHint,
  formFields,
  optionLines,
  prefill,
  readField,
  shownText,
  shownValue,
} from './fields.js';

/**
 * A refused answer is asked for again at most this many times in a row (the
 * final choice too). Then the user decides what happens to the field: retry
 * it, skip it when it is optional, or cancel the form; so one field's refusals
 * never end the form by themselves.
 */
export const MAX_REASKS = 3;
/**
 * How many times one field can be retried that way; refused past the last
 * round, the form is cancelled (`action: "cancel"`), so a prompt can never
 * loop forever. At most (MAX_REASKS + 1) × (MAX_FIELD_RETRIES + 1) answers a field.
 */
export const MAX_FIELD_RETRIES = 2;

type Action = ElicitResult['action'];

/** The final question of a form: Enter accepts. */
export const SEND_PROMPT = 'Send it? [Y/n] (n declines, c cancels): ';

/**
 * Fills in a form-mode elicitation: the server's message, then one prompt per
 * field of `requestedSchema` in its order (title, description, what it takes,
 * the default on the line to keep or edit), each answer checked and asked
 * again when refused, on a line holding the default again, never the refused
 * answer (typing would add to it). Then a summary and the final accept (also
 * an empty line), decline or cancel. Input ending (Ctrl+D) cancels.
 */
export async function answerForm(
  request: ElicitRequestFormParams,
  asker: Asker,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  asker.say(['', `The server asks for input: ${shownText(request.message, true)}`]);
  const content: Record<string, FieldValue> = {};
  for (const field of formFields(request.requestedSchema)) {
    asker.say([
      `  ${field.label} (${fieldHint(field)})`,
      ...(field.description === undefined ? [] : [`    ${field.description}`]),
      ...optionLines(field).map((line) => `    ${line}`),
    ]);
    const answer = await answerField(field, asker, signal);
    if (answer === 'cancel') return { action: 'cancel' };
    if (answer !== undefined) content[field.name] = answer;
  }
  const summary = Object.entries(content).map(([name, value]) => `  ${shownText(name)}: ${shownValue(value)}`);
  asker.say(summary.length > 0 ? ['Your answer:', ...summary] : ['Your answer is empty.']);
  const action = await choose(
    asker,
    SEND_PROMPT,
    ACTIONS,
    'accept',
    'answer y (accept), n (decline) or c (cancel)',
    signal,
  );
  return action === 'accept' ? { action, content } : { action };
}

/** Asks for one field until an answer is taken: its value, undefined (left out), or `cancel` for the whole form. */
async function answerField(
  field: Field,
  asker: Asker,
  signal: AbortSignal | undefined,
): Promise<FieldValue | undefined | 'cancel'> {
  for (let round = 0; ; round++) {
    let problem = '';
    for (let tries = 0; tries <= MAX_REASKS; tries++) {
      if (tries > 0) asker.say([`    ${problem}; try again`]);
      const typed = await asker.ask(`  ${shownText(field.name)}> `, prefill(field), signal);
      if (typed === undefined) return ended(asker).action;
      const reading = readField(field, typed);
      if (reading.ok) return reading.value;
      problem = reading.problem;
    }
    const refused = `${problem}; ${(round + 1) * (MAX_REASKS + 1)} answers refused`;
    if (round >= MAX_FIELD_RETRIES) return gaveUp(asker, refused).action;
    asker.say([`    ${refused}`]);
    const name = shownText(field.name);
    const next = field.required
      ? await choose(
          asker,
          `  [r]etry ${name} or [c]ancel the form: `,
          RETRY_OR_CANCEL,
          undefined,
          'answer r or c',
          signal,
        )
      : await choose(
          asker,
          `  [r]etry ${name}, [s]kip it or [c]ancel the form: `,
          RETRY_SKIP_OR_CANCEL,
          undefined,
          'answer r, s or c',
          signal,
        );
    if (next === 'skip') return undefined;
    if (next === 'cancel') return 'cancel';
  }
}

const RETRY_OR_CANCEL: Readonly<Record<string, 'retry' | 'cancel'>> = {
  r: 'retry',
  retry: 'retry',
  c: 'cancel',
  cancel: 'cancel',
};
const RETRY_SKIP_OR_CANCEL: Readonly<Record<string, 'retry' | 'skip' | 'cancel'>> = {
  ...RETRY_OR_CANCEL,
  s: 'skip',
  skip: 'skip',
};

/**
 * A URL-mode elicitation: the server's message and the URL (its host apart,
 * so a look-alike is easier to spot), then the user's consent. Accepting
 * opens the URL with `open` when one is given; else the user opens it. The
 * client passes on only `https:` URLs, or `http:` to this machine.
 */
export async function answerUrl(
  request: ElicitRequestUrlParams,
  asker: Asker,
  open: ((url: string) => unknown) | undefined,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const url = new URL(request.url);
  asker.say([
    '',
    `The server asks you to open a URL: ${shownText(request.message, true)}`,
    `  ${shownText(url.href)}`,
    `  host: ${shownText(url.host)}`,
  ]);
  const action = await choose(
    asker,
    'Open it? [a]ccept, [d]ecline, [c]ancel: ',
    ACTIONS,
    undefined,
    'answer a (accept), d (decline) or c (cancel)',
    signal,
  );
  if (action !== 'accept') return { action };
  if (open === undefined) {
    asker.say(['Open it in your browser; the server continues once you are done there.']);
  } else {
    try {
      await open(url.href);
    } catch (error) {
      asker.say([`Could not open a browser (${shownText(String(error))}); open the URL yourself.`]);
    }
  }
  return { action };
}

const ACTIONS: Readonly<Record<string, Action>> = {
  a: 'accept',
  accept: 'accept',
  y: 'accept',
  yes: 'accept',
  d: 'decline',
  decline: 'decline',
  n: 'decline',
  no: 'decline',
  c: 'cancel',
  cancel: 'cancel',
};

/**
 * Asks until the answer is one of `answers` (any case), or empty when there is
 * a `fallback`; input ending, or MAX_REASKS wrong answers more, cancel.
 */
async function choose<T extends string>(
  asker: Asker,
  prompt: string,
  answers: Readonly<Record<string, T>>,
  fallback: T | undefined,
  hint: string,
  signal: AbortSignal | undefined,
): Promise<T | 'cancel'> {
  for (let tries = 0; ; tries++) {
    const typed = await asker.ask(prompt, '', signal);
    if (typed === undefined) return ended(asker).action;
    const word = typed.trim().toLowerCase();
    const chosen = word === '' ? fallback : Object.hasOwn(answers, word) ? answers[word] : undefined;
    if (chosen !== undefined) return chosen;
    if (tries >= MAX_REASKS) return gaveUp(asker, hint).action;
    asker.say([`  ${hint}`]);
  }
}

function ended(asker: Asker): { action: 'cancel' } {
  asker.say(['', 'Input ended: cancelled.']);
  return { action: 'cancel' };
}

function gaveUp(asker: Asker, problem: string): { action: 'cancel' } {
  asker.say([`    ${problem}, no more tries: cancelled.`]);
  return { action: 'cancel' };
}

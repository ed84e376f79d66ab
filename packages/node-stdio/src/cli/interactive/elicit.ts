/**
 * A server's elicitation answered at the terminal: a form one field at a
 * time, then accept, decline or cancel; a URL after the user's consent.
 */
import type { ElicitRequestFormParams, ElicitRequestUrlParams, ElicitResult } from '@mcp/core';
import type { Asker } from './asker.js';
import {
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
 * A field (or the final choice) is asked again at most this many times after
 * an answer it refuses; one more refusal cancels the whole elicitation
 * (`action: "cancel"`), so a prompt can never loop forever.
 */
export const MAX_REASKS = 3;

type Action = ElicitResult['action'];

/**
 * Fills in a form-mode elicitation: the server's message, then one prompt per
 * field of `requestedSchema` in its order (title, description, what it takes,
 * the default on the line to keep or edit), each answer checked and asked
 * again when refused, then a summary and the final accept, decline or cancel.
 * Input ending (Ctrl+D) cancels.
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
    let line = prefill(field);
    for (let tries = 0; ; tries++) {
      const typed = await asker.ask(`  ${shownText(field.name)}> `, line, signal);
      if (typed === undefined) return ended(asker);
      const reading = readField(field, typed);
      if (reading.ok) {
        if (reading.value !== undefined) content[field.name] = reading.value;
        break;
      }
      if (tries >= MAX_REASKS) return gaveUp(asker, reading.problem);
      asker.say([`    ${reading.problem}; try again`]);
      line = typed;
    }
  }
  const summary = Object.entries(content).map(([name, value]) => `  ${shownText(name)}: ${shownValue(value)}`);
  asker.say(summary.length > 0 ? ['Your answer:', ...summary] : ['Your answer is empty.']);
  const action = await chooseAction(asker, 'Send it? [a]ccept, [d]ecline, [c]ancel: ', signal);
  return action === 'accept' ? { action, content } : { action };
}

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
  const action = await chooseAction(asker, 'Open it? [a]ccept, [d]ecline, [c]ancel: ', signal);
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

/** Asks for accept, decline or cancel; input ending, or MAX_REASKS wrong answers more, cancel. */
async function chooseAction(asker: Asker, prompt: string, signal: AbortSignal | undefined): Promise<Action> {
  for (let tries = 0; ; tries++) {
    const typed = await asker.ask(prompt, '', signal);
    if (typed === undefined) return ended(asker).action;
    const action = ACTIONS[typed.trim().toLowerCase()];
    if (action !== undefined) return action;
    if (tries >= MAX_REASKS) return gaveUp(asker, 'answer a, d or c').action;
    asker.say(['  answer a (accept), d (decline) or c (cancel)']);
  }
}

function ended(asker: Asker): { action: 'cancel' } {
  asker.say(['', 'Input ended: cancelled.']);
  return { action: 'cancel' };
}

function gaveUp(asker: Asker, problem: string): { action: 'cancel' } {
  asker.say([`    ${problem}; no more tries (${MAX_REASKS + 1} refused): cancelled.`]);
  return { action: 'cancel' };
}

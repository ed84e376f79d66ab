import { type LanguageModel, type ModelMessage, stepCountIs, streamText, type ToolSet } from 'ai';
import { describeError, el, transcript } from './dom.js';
import { ToolCard } from './tool-card.js';

/**
 * How many model steps one user message may take: each step is one model
 * answer, and a step that calls tools is followed by another with their
 * results. Past it the turn ends where it is.
 */
export const MAX_STEPS = 8;

/**
 * One turn of the conversation: sends the history plus `text` to the model
 * with the server's tools, and shows the answer as it streams (text, each tool
 * call with its progress and result). The turn's messages join `history`, so
 * the next turn remembers it. Resolves when the turn ends, or is stopped
 * (`signal`: the model stream ends and running tool calls are cancelled on the
 * server); never rejects.
 */
export async function chatTurn(options: {
  model: LanguageModel;
  tools: ToolSet;
  history: ModelMessage[];
  text: string;
  cards: Map<string, ToolCard>;
  signal: AbortSignal;
}): Promise<void> {
  const { model, tools, history, text, cards, signal } = options;
  transcript.add(el('p', { class: 'entry user' }, text));
  const turn: ModelMessage[] = [...history, { role: 'user', content: text }];
  let answer: HTMLElement | undefined;
  /** This turn's tool calls: `cards` may hold a later turn's too (after a reconnect). */
  const mine = new Set<string>();
  try {
    const result = streamText({ model, tools, messages: turn, stopWhen: stepCountIs(MAX_STEPS), abortSignal: signal });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          answer ??= transcript.add(el('p', { class: 'entry assistant' }));
          answer.textContent += part.text;
          break;
        case 'tool-call':
          answer = undefined; // text after the tool call starts a new paragraph
          cards.set(part.toolCallId, new ToolCard(part.toolName, part.input));
          mine.add(part.toolCallId);
          break;
        case 'tool-result':
          cards.get(part.toolCallId)?.done(part.output);
          cards.delete(part.toolCallId);
          break;
        case 'tool-error':
          cards.get(part.toolCallId)?.failed(part.error);
          cards.delete(part.toolCallId);
          break;
        case 'abort':
          for (const id of mine) cards.get(id)?.failed('Stopped.');
          transcript.add(el('p', { class: 'entry note' }, 'Stopped.'));
          return; // the history keeps only finished turns
        case 'finish':
          // The model still wanted tools when the step bound ended the turn.
          if (part.finishReason === 'tool-calls') {
            transcript.add(el('p', { class: 'entry note' }, `Stopped after ${MAX_STEPS} steps.`));
          }
          break;
        case 'error':
          throw part.error;
      }
    }
    history.push({ role: 'user', content: text }, ...(await result.response).messages);
  } catch (error) {
    transcript.add(el('p', { class: 'entry error', role: 'alert' }, describeError(error)));
  } finally {
    for (const id of mine) cards.delete(id);
  }
}

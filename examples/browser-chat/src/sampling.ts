import type { CreateMessageRequestParams, SamplingContent } from '@mcp/core';
import type { PendingSampling } from '@mcp/core/connections';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { describeError, el, transcript } from './dom.js';

/** A sampling content block as the text the user is shown. */
function shown(block: SamplingContent): string {
  return block.type === 'text' ? (block as { text: string }).text : `[${block.type}]`;
}

const blocksOf = (message: CreateMessageRequestParams['messages'][number]): SamplingContent[] =>
  Array.isArray(message.content) ? message.content : [message.content];

/** The server's messages as the AI SDK's: text kept, other blocks named (this example sends text only). */
function toModelMessages(request: CreateMessageRequestParams): ModelMessage[] {
  return request.messages.map((message) => ({ role: message.role, content: blocksOf(message).map(shown).join('\n') }));
}

/**
 * Shows what the server wants the model to read and asks the user first: the
 * spec asks clients to keep a human in the loop for sampling (2025-11-25,
 * client/sampling), since the server spends the user's model. Approved, the
 * same model endpoint the chat uses answers it; declined, the server gets the
 * refusal the spec names (-1, user rejected) and the model is never called.
 * A request the server gives up (`signal`) closes with its buttons disabled.
 */
export function approveSampling(
  pending: PendingSampling,
  server: string,
  model: () => { model: LanguageModel; id: string },
): void {
  const request = pending.params;
  const approveButton = el('button', { type: 'button' }, 'Approve');
  const declineButton = el('button', { type: 'button' }, 'Decline');
  const status = el('p', { class: 'status' });
  transcript.add(
    el(
      'section',
      { class: 'entry sampling', 'aria-label': 'Sampling request' },
      el('h3', {}, `${server} asks to use your model`),
      request.systemPrompt !== undefined && el('p', { class: 'system' }, `System: ${request.systemPrompt}`),
      el(
        'ol',
        {},
        ...request.messages.map((message) =>
          el('li', {}, el('b', {}, `${message.role}: `), blocksOf(message).map(shown).join('\n')),
        ),
      ),
      el('p', { class: 'meta' }, `Up to ${request.maxTokens} tokens.`),
      el('div', { class: 'actions' }, approveButton, declineButton),
      status,
    ),
  );
  const close = (note: string) => {
    approveButton.disabled = declineButton.disabled = true;
    pending.signal.removeEventListener('abort', onAbort);
    status.textContent = note;
  };
  const onAbort = () => close('Withdrawn.');
  pending.signal.addEventListener('abort', onAbort, { once: true });
  if (pending.signal.aborted) onAbort();
  declineButton.addEventListener('click', () => {
    if (pending.decline()) close('Declined.');
  });
  approveButton.addEventListener('click', () => {
    close('Approved: asking the model…');
    // model() reads the settings form, which may not make a model: that too is a failure shown here.
    void Promise.resolve()
      .then(() => answer(pending, model()))
      .then(
        (text) =>
          transcript.add(el('p', { class: 'entry note' }, 'The model answered the server: ', el('q', {}, text))),
        (error: unknown) => {
          const withdrawn = pending.signal.aborted;
          // The queue has no way to send the model's failure as such; the server reads a refusal.
          pending.cancel();
          status.textContent = withdrawn ? 'Withdrawn.' : `The model failed: ${describeError(error)}`;
        },
      );
  });
}

/** Asks the model and answers the request with its text; resolves with the text. */
async function answer(pending: PendingSampling, chosen: { model: LanguageModel; id: string }): Promise<string> {
  const request = pending.params;
  const { text, finishReason } = await generateText({
    model: chosen.model,
    messages: toModelMessages(request),
    maxOutputTokens: request.maxTokens,
    abortSignal: pending.signal,
    ...(request.systemPrompt !== undefined && { system: request.systemPrompt }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  });
  pending.respond({
    role: 'assistant',
    content: { type: 'text', text },
    model: chosen.id,
    stopReason: finishReason === 'length' ? 'maxTokens' : 'endTurn',
  });
  return text;
}

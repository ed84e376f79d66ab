import type { CreateMessageRequestParams, CreateMessageResult, SamplingContent, SamplingHandler } from '@mcp/core';
import { ErrorCode, RpcError } from '@mcp/core';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { el, transcript } from './dom.js';

/** A sampling content block as the text the user is shown. */
function shown(block: SamplingContent): string {
  return block.type === 'text' ? (block as { text: string }).text : `[${block.type}]`;
}

const blocksOf = (message: CreateMessageRequestParams['messages'][number]): SamplingContent[] =>
  Array.isArray(message.content) ? message.content : [message.content];

/**
 * Shows what the server wants the model to read, and resolves with the user's
 * choice. The spec asks clients to keep a human in the loop for sampling
 * (2025-11-25, client/sampling), since the server spends the user's model.
 */
function approve(request: CreateMessageRequestParams, signal: AbortSignal): Promise<boolean> {
  const approveButton = el('button', { type: 'button' }, 'Approve');
  const declineButton = el('button', { type: 'button' }, 'Decline');
  const status = el('p', { class: 'status' });
  transcript.add(
    el(
      'section',
      { class: 'entry sampling', 'aria-label': 'Sampling request' },
      el('h3', {}, 'The server asks to use your model'),
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
  return new Promise((resolve) => {
    const finish = (approved: boolean, note: string) => {
      approveButton.disabled = declineButton.disabled = true;
      signal.removeEventListener('abort', onAbort);
      status.textContent = note;
      resolve(approved);
    };
    const onAbort = () => finish(false, 'Withdrawn by the server.');
    signal.addEventListener('abort', onAbort, { once: true });
    // Withdrawn before it was shown: the abort event has already fired, and would never reach onAbort.
    if (signal.aborted) onAbort();
    approveButton.addEventListener('click', () => finish(true, 'Approved: asking the model…'));
    declineButton.addEventListener('click', () => finish(false, 'Declined.'));
  });
}

/** The server's messages as the AI SDK's: text kept, other blocks named (this example sends text only). */
function toModelMessages(request: CreateMessageRequestParams): ModelMessage[] {
  return request.messages.map((message) => ({ role: message.role, content: blocksOf(message).map(shown).join('\n') }));
}

/**
 * A sampling handler that asks the user first, then answers with the same
 * model endpoint the chat uses. A decline is the JSON-RPC error the spec names
 * for it (-1, user rejected); the server sees the refusal, nothing is sampled.
 */
export function samplingWithApproval(model: () => { model: LanguageModel; id: string }): SamplingHandler {
  return async (request, { signal }): Promise<CreateMessageResult> => {
    if (!(await approve(request, signal))) {
      throw new RpcError(ErrorCode.UserRejected, 'User rejected sampling request');
    }
    const chosen = model();
    const { text, finishReason } = await generateText({
      model: chosen.model,
      messages: toModelMessages(request),
      maxOutputTokens: request.maxTokens,
      abortSignal: signal,
      ...(request.systemPrompt !== undefined && { system: request.systemPrompt }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
    });
    transcript.add(el('p', { class: 'entry note' }, 'The model answered the server: ', el('q', {}, text)));
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model: chosen.id,
      stopReason: finishReason === 'length' ? 'maxTokens' : 'endTurn',
    };
  };
}

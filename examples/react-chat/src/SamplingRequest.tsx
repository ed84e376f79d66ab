import type { CreateMessageRequestParams, SamplingContent } from '@mcp/core';
import type { PendingSampling } from '@mcp/core/connections';
import { generateText, type ModelMessage } from 'ai';
import { useState } from 'react';
import type { ChosenModel } from './model.js';
import { describeError } from './text.js';

/** A sampling content block as the text the user is shown. */
function shown(block: SamplingContent): string {
  return block.type === 'text' ? (block as { text: string }).text : `[${block.type}]`;
}

const textOf = (message: CreateMessageRequestParams['messages'][number]): string =>
  (Array.isArray(message.content) ? message.content : [message.content]).map(shown).join('\n');

/**
 * What a server wants the user's model to read, shown before anything is
 * sampled: the spec asks clients to keep a human in the loop (2025-11-25,
 * client/sampling), since the server spends the user's model. Approved, the
 * chat's own model answers it; declined, the server reads the refusal the spec
 * names (-1, user rejected) and the model is never called.
 */
export function SamplingRequest({
  server,
  request,
  model,
}: {
  server: string;
  request: PendingSampling;
  model: () => ChosenModel;
}) {
  const [status, setStatus] = useState('');
  const { params } = request;

  const approve = () => {
    setStatus('Asking the model…');
    answer(request, model()).catch((error: unknown) => {
      // The request has no way to carry the model's failure as such: the server reads a refusal.
      request.cancel();
      setStatus(`The model failed: ${describeError(error)}`);
    });
  };

  return (
    <section className="entry sampling" aria-label={`${server} asks to use your model`}>
      <h3>{server} asks to use your model</h3>
      {params.systemPrompt !== undefined && <p className="system">System: {params.systemPrompt}</p>}
      <ol>
        {params.messages.map((message, i) => (
          // The request's messages never change: their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <li key={i}>
            <b>{message.role}: </b>
            {textOf(message)}
          </li>
        ))}
      </ol>
      <p className="meta">Up to {params.maxTokens} tokens.</p>
      <div className="actions">
        <button type="button" disabled={status !== ''} onClick={approve}>
          Approve
        </button>
        <button type="button" disabled={status !== ''} onClick={() => request.decline()}>
          Decline
        </button>
      </div>
      <p className="status">{status}</p>
    </section>
  );
}

/** Asks the model (aborted if the server gives the request up) and answers the request with its text. */
async function answer(request: PendingSampling, chosen: ChosenModel): Promise<void> {
  const { params } = request;
  const messages: ModelMessage[] = params.messages.map((message) => ({ role: message.role, content: textOf(message) }));
  const { text, finishReason } = await generateText({
    model: chosen.model,
    messages,
    maxOutputTokens: params.maxTokens,
    abortSignal: request.signal,
    ...(params.systemPrompt !== undefined && { system: params.systemPrompt }),
    ...(params.temperature !== undefined && { temperature: params.temperature }),
  });
  request.respond({
    role: 'assistant',
    content: { type: 'text', text },
    model: chosen.id,
    stopReason: finishReason === 'length' ? 'maxTokens' : 'endTurn',
  });
}

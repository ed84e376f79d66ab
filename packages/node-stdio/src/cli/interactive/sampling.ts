/**
 * A server's `sampling/createMessage`, which `mcp` has no model to answer:
 * the request is shown on stderr (the conversation, made terminal-safe), then
 * refused, or, with `--allow-sampling` at a terminal, answered by the user,
 * who types the reply the server receives as the model's.
 */
import { type CreateMessageRequestParams, type CreateMessageResult, RpcError } from '@mcp/core';
import type { Asker } from './asker.js';
import { shownText } from './fields.js';

/** The JSON-RPC error code of a refused sampling request (the spec's example, "User rejected sampling request"). */
export const SAMPLING_REFUSED = -1;
/** At most this many messages of the conversation are shown: the last ones, after a line saying how many are not. */
export const MAX_SHOWN_MESSAGES = 20;
/** The `model` of a reply the user typed. */
export const TYPED_MODEL = 'mcp-cli-user';

/** The refusal the server receives. */
export function samplingRefused(): RpcError {
  return new RpcError(SAMPLING_REFUSED, 'User rejected sampling request');
}

/** The lines that show a sampling request. */
export function samplingLines(request: CreateMessageRequestParams): string[] {
  const lines = [`The server asks for a model reply (sampling, at most ${request.maxTokens} tokens):`];
  if (request.systemPrompt !== undefined) lines.push(`  system: ${shownText(request.systemPrompt, true)}`);
  const hidden = request.messages.length - MAX_SHOWN_MESSAGES;
  if (hidden > 0) lines.push(`  … ${hidden} earlier ${hidden === 1 ? 'message' : 'messages'} not shown`);
  for (const message of request.messages.slice(Math.max(0, hidden))) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const parts = blocks.map((block) => blockText(block as unknown as Readonly<Record<string, unknown>>));
    lines.push(`  ${shownText(String(message.role))}: ${shownText(parts.join(' '), true)}`);
  }
  return lines.flatMap((line) => line.split('\n'));
}

/** Text as itself; any other part as a bracketed label (`[image image/png]`), never its data. */
function blockText(block: Readonly<Record<string, unknown>>): string {
  const type = typeof block.type === 'string' ? block.type : '?';
  if (type === 'text') return typeof block.text === 'string' ? block.text : '';
  const detail = [block.mimeType, block.name].find((value) => typeof value === 'string');
  return `[${type}${detail === undefined ? '' : ` ${detail}`}]`;
}

/**
 * Asks the user to type the reply. An empty line or the end of input refuses
 * (the server gets SAMPLING_REFUSED); otherwise the reply goes back as one
 * text part from the assistant, `model` TYPED_MODEL, `stopReason` `endTurn`.
 */
export async function typedReply(asker: Asker, signal?: AbortSignal): Promise<CreateMessageResult> {
  const typed = await asker.ask('Reply as the model (empty refuses): ', '', signal);
  if (typed === undefined || typed.trim() === '') {
    asker.say(['Refused.']);
    throw samplingRefused();
  }
  return { role: 'assistant', content: { type: 'text', text: typed }, model: TYPED_MODEL, stopReason: 'endTurn' };
}

import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import { readBodyText } from '../../util/read-body.js';

/** Characters of a body that answers nothing quoted in its error. */
const EXCERPT_CHARS = 120;

/**
 * The message a JSON answer to request `requestId` carries (its response, or a
 * 2025-03-26 batch holding it) and the length of its text. A body past `maxBytes` fails with a LimitError;
 * one that answers nothing (not JSON, an error naming no request, another id)
 * fails the call at once instead of leaving it to time out.
 */
export async function jsonAnswer(
  response: Response,
  requestId: RequestId,
  maxBytes: number,
): Promise<{ readonly message: unknown; readonly size: number }> {
  const text = await readBodyText(response, maxBytes);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    throw new ProtocolError(`the response body is not JSON: ${text.slice(0, EXCERPT_CHARS)}`, {}, { cause: error });
  }
  const items = Array.isArray(message) ? message : [message];
  if (!items.some((item) => answers(item, requestId))) throw unanswered(message, text, requestId);
  return { message, size: text.length };
}

/** Whether `message` is the response to request `id`: a result or an error that names it, not a request. */
export function answers(message: unknown, id: RequestId): message is { id: RequestId } {
  if (typeof message !== 'object' || message === null || 'method' in message) return false;
  return 'id' in message && message.id === id;
}

/**
 * Why JSON `message` (of body `text`) does not answer `requestId`: it is an
 * error response that names no request (a parse error, say), or it answers
 * something else.
 */
function unanswered(message: unknown, text: string, requestId: RequestId): Error {
  const refusal = idLessError(message);
  if (refusal) return new RpcError(refusal.code, refusal.message, refusal.data);
  const wrong = `the JSON response does not answer request ${JSON.stringify(requestId)}: ${text.slice(0, EXCERPT_CHARS)}`;
  return new ProtocolError(wrong, { received: message });
}

/** The error object of an error response that names no request, if `message` is one. */
function idLessError(message: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (typeof message !== 'object' || message === null || !('error' in message)) return undefined;
  if ('id' in message && message.id !== null) return undefined;
  const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (typeof error?.code !== 'number' || typeof error.message !== 'string') return undefined;
  return { code: error.code, message: error.message, data: error.data };
}

import { ProtocolError } from '../../../errors/protocol-error.js';
import { RpcError } from '../../../errors/rpc-error.js';
import type { RequestId } from '../../../protocol/jsonrpc.js';

/**
 * Why a JSON body does not answer `requestId`: it is not JSON, it is an error
 * response that names no request (a parse error, say), or it answers something
 * else. Loaded on demand: a healthy exchange answers every request.
 */
export function unansweredError(text: string, requestId: RequestId): Error {
  const excerpt = text.slice(0, 120);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return new ProtocolError(`the response body is not JSON: ${excerpt}`, {}, { cause: error });
  }
  const refusal = idLessError(message);
  if (refusal) return new RpcError(refusal.code, refusal.message, refusal.data);
  const wrong = `the JSON response does not answer request ${JSON.stringify(requestId)}: ${excerpt}`;
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

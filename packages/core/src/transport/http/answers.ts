import type { RequestId } from '../../protocol/jsonrpc.js';

/** Whether `message` is the response to request `id`: a result or an error that names it, not a request. */
export function answers(message: unknown, id: RequestId): message is { id: RequestId } {
  if (typeof message !== 'object' || message === null || 'method' in message) return false;
  return 'id' in message && message.id === id;
}

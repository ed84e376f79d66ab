import type { RequestId } from '../../protocol/jsonrpc.js';
import { readBodyText } from '../../util/read-body.js';
import { answers } from './answers.js';
import { resilience } from './on-demand.js';

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
  } catch {
    // Not JSON, so it answers nothing: `unansweredError` says so.
  }
  const items = Array.isArray(message) ? message : [message];
  if (!items.some((item) => answers(item, requestId))) throw (await resilience()).unansweredError(text, requestId);
  return { message, size: text.length };
}

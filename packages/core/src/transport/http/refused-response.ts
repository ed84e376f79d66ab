import { HttpError } from '../../errors/http-error.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import { contentType, readBodyText } from './read-body.js';
import { answers } from './sse-messages.js';

/*
 * What a response with a status that is not a success means: the JSON-RPC
 * error it carries, or an HttpError. Not loaded on demand, though a healthy
 * exchange gets no such response: every connect to a legacy server does, when
 * it refuses the era probe, and legacy servers are most servers.
 */

/** An HttpError for a response that is not a success, with a bounded excerpt of its body. */
export async function httpError(response: Response, url: URL): Promise<HttpError> {
  return new HttpError(response.status, url.href, await bodyExcerpt(response));
}

/**
 * The JSON-RPC error answering `requestId` in a failed response's body, if that
 * is what it holds (2026-07-28 refuses with -32022/-32021/-32020 and 400, or
 * 404 + -32601). The body stays readable for `httpError`.
 */
export async function jsonRpcError(response: Response, requestId: RequestId): Promise<object | undefined> {
  if (!contentType(response).startsWith('application/json')) return undefined;
  try {
    const body: unknown = JSON.parse(await readBodyText(response.clone(), 64 * 1024));
    return answers(body, requestId) && 'error' in body ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The start of a body, for error messages: reads only until it has `max`
 * characters (HttpError cuts further, marking the cut); never throws.
 */
async function bodyExcerpt(response: Response, max = 4096): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length <= max) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel().catch(() => {});
  } catch {
    // A body that breaks mid-way still gives what arrived.
  } finally {
    reader.releaseLock();
  }
  return text.slice(0, max);
}

import { HttpError } from '../../errors/http-error.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import { contentType } from '../../util/read-body.js';
import { answers } from './json-answer.js';

/*
 * What a response with a status that is not a success means: the JSON-RPC
 * error it carries, or an HttpError. Not loaded on demand, though a healthy
 * exchange gets no such response: every connect to a legacy server does, when
 * it refuses the era probe, and legacy servers are most servers.
 */

/** How long an error response's body is waited for, in ms: a body that stalls must not hold up its error. */
const ERROR_BODY_WAIT = 2000;
/** Characters of an error response's body kept for an error message (HttpError cuts further, marking the cut). */
const EXCERPT_CHARS = 4096;
/** Characters of an error response's JSON body read for the JSON-RPC error it may hold: one fits, a page need not. */
const ERROR_JSON_CHARS = 64 * 1024;

/** An HttpError for a response that is not a success, with a bounded excerpt of its body (`text`, if already read). */
export async function httpError(
  response: Response,
  url: URL,
  text?: string,
  options?: ErrorOptions,
): Promise<HttpError> {
  return new HttpError(response.status, url.href, text ?? (await bodyStart(response, EXCERPT_CHARS)), options);
}

/**
 * What a failed response means when it answers nothing else: the JSON-RPC error
 * it carries for `requestId`, if it is one (2026-07-28 refuses with
 * -32022/-32021/-32020 and 400, or 404 + -32601); otherwise it throws an
 * HttpError with the start of the body.
 */
export async function readErrorResponse(
  response: Response,
  url: URL,
  requestId: RequestId | undefined,
): Promise<object> {
  const json = requestId !== undefined && contentType(response).startsWith('application/json');
  const text = await bodyStart(response, json ? ERROR_JSON_CHARS : EXCERPT_CHARS);
  if (json) {
    try {
      const body: unknown = JSON.parse(text);
      if (answers(body, requestId) && 'error' in body) return body;
    } catch {
      // Not JSON, or cut at ERROR_JSON_CHARS: no answer.
    }
  }
  throw await httpError(response, url, text);
}

/**
 * The start of a body: reads only until it has `max` characters, or for
 * ERROR_BODY_WAIT ms at most (whatever arrived by then); never throws.
 */
async function bodyStart(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  // Cancelling ends a pending read with what came so far.
  const stop = () => void reader.cancel().catch(() => {});
  const timer = setTimeout(stop, ERROR_BODY_WAIT);
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length <= max) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    stop();
  } catch {
    // A body that breaks mid-way still gives what arrived.
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text.slice(0, max);
}

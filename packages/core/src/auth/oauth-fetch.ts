import { createFetch, FetchError, type FetchResponse } from 'ofetch';
import { AuthError, type AuthErrorCode } from '../errors/auth-error.js';
import { LimitError } from '../errors/limit-error.js';
import { messageOf } from '../util/message-of.js';
import { discard, readBodyText } from '../util/read-body.js';
import { isRedirect } from './secure-endpoint.js';

/**
 * OAuth's own HTTP requests (metadata GETs, registration and token POSTs) on
 * ofetch: retries only for idempotent GETs, its prototype-safe JSON parsing; and
 * ours: a deadline per attempt and the bounded reader for every body. Loaded on
 * demand by oauth-http.ts, so a program without OAuth never loads ofetch.
 */

/** An answer to one OAuth request: its status, headers, and the body parsed as JSON (its text when not JSON). */
export interface OAuthAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** The bounds one request runs under (OAuthOptions.limits, defaults filled in). */
export interface OAuthFetchSettings {
  readonly fetch: typeof fetch;
  readonly maxResponseBytes: number;
  /** Per attempt, in ms, at most 2^31-1; undefined: none. */
  readonly timeout: number | undefined;
  /** A finite whole number (OAuthProvider checks it). */
  readonly retries: number;
}

/** One request, already checked against the URL rules (oauth-http.ts). */
export interface OAuthFetchRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Headers;
  readonly body?: string;
  /** Names the request in error messages: "the token endpoint". */
  readonly what: string;
  /** The error code when no answer came (network failure, redirect). */
  readonly failure: AuthErrorCode;
}

/** Pause before a GET is tried again: long enough for a blip, short enough not to stall discovery. */
const RETRY_DELAY_MS = 200;

/** How a `LimitError` names the body bound, as an app writes it in OAuthOptions. */
const MAX_RESPONSE_BYTES = 'limits.maxResponseBytes';

/** Statuses whose answers carry no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205]);

/**
 * Sends one request and returns its answer, whatever its status (an OAuth error
 * body is an answer). Throws when there is none: a `LimitError` for a body past
 * `limits.maxResponseBytes`; an AuthError for `request_timeout`, or
 * `request.failure` for a network failure or a redirect (never followed: a
 * token POST carries secrets, and a metadata GET must come from the URL that
 * was checked).
 */
export async function oauthFetch(settings: OAuthFetchSettings, request: OAuthFetchRequest): Promise<OAuthAnswer> {
  const $fetch = createFetch({ fetch: bounded(settings, request) });
  const idempotent = request.method === 'GET';
  try {
    const response = await $fetch.raw(request.url.href, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined && { body: request.body }),
      // 'manual', not 'error': workerd refuses redirect: 'error'; a redirect is refused in bounded().
      redirect: 'manual',
      // No ofetch `timeout`: its signal is made once, its timer cleared at the
      // first answer, and a retry reuses that signal, so a retried attempt had
      // no deadline at all. bounded() gives each attempt its own.
      retry: idempotent ? settings.retries : 0,
      retryDelay: RETRY_DELAY_MS,
      responseType: 'json',
      // A POST's answer is read whatever its status; a GET's 4xx/5xx goes through ofetch's retry first.
      ignoreResponseError: !idempotent,
      // Our refusals and a timeout end the request at once; only network failures are tried again.
      onRequestError({ error }) {
        if (isRefusal(error)) throw error;
      },
    });
    return answer(response);
  } catch (error) {
    if (isRefusal(error)) throw error;
    if (error instanceof FetchError && error.response) return answer(error.response);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw new AuthError(request.failure, `${request.what} ${request.url.href} failed: ${messageOf(cause)}`, {
      cause: error,
    });
  }
}

/** An error of ours that ends the request as it is: a limit, a timeout, a redirect refused. */
function isRefusal(error: unknown): error is AuthError | LimitError {
  return error instanceof AuthError || error instanceof LimitError;
}

function answer(response: FetchResponse<unknown>): OAuthAnswer {
  return { status: response.status, headers: response.headers, body: response._data };
}

/**
 * The fetch ofetch calls, once per attempt: the injected one, then the whole
 * body through the bounded reader, all under a deadline of the attempt's own
 * (and ofetch's signal, should it pass one), so the timeout covers a body that
 * trickles as well as headers that never come, even with a fetch that ignores
 * signals. ofetch then parses the text it gets back.
 */
function bounded(settings: OAuthFetchSettings, request: OAuthFetchRequest): typeof fetch {
  return async (input, init) => {
    const deadline = new AbortController();
    const { timeout } = settings;
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => deadline.abort(new DOMException('timed out', 'TimeoutError')), timeout);
    const signal = init?.signal ? AbortSignal.any([deadline.signal, init.signal]) : deadline.signal;
    try {
      const response = await untilAborted(settings.fetch(input, { ...init, signal }), signal);
      if (isRedirect(response)) {
        await discard(response);
        throw new AuthError(
          request.failure,
          `${request.what} ${request.url.href} answered with a redirect${response.status ? ` (HTTP ${response.status})` : ''}, which is not followed`,
        );
      }
      const body = response.body?.pipeThrough(new TransformStream(), { signal }) ?? null;
      let text: string;
      try {
        text = await readBodyText(
          new Response(body, { headers: response.headers }),
          settings.maxResponseBytes,
          MAX_RESPONSE_BYTES,
        );
      } catch (error) {
        // The reader's LimitError becomes the cause of one that names the endpoint too.
        if (!(error instanceof LimitError)) throw error;
        throw new LimitError(
          MAX_RESPONSE_BYTES,
          settings.maxResponseBytes,
          `${request.what} ${request.url.href} sent more than ${settings.maxResponseBytes} bytes`,
          { cause: error },
        );
      }
      return new Response(NULL_BODY.has(response.status) ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (!deadline.signal.aborted || isRefusal(error)) throw error;
      throw new AuthError(
        'request_timeout',
        `${request.what} ${request.url.href} did not answer within ${timeout} ms (limits.timeout)`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The response, or the signal's reason as soon as it aborts. A fetch that
 * ignores signals may still answer after that: its body is cancelled then, so
 * the connection is let go rather than held until the server ends it.
 */
function untilAborted(work: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      work.then(discard, () => {});
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

import { CorsError } from '../../errors/cors-error.js';
import { HttpError } from '../../errors/http-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { backoffDelay, parseRetryAfter, sleep } from './backoff.js';
import { provesNotDelivered } from './network-failure.js';
import { DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, type StreamableHttpTransportOptions } from './options.js';
import { bodyExcerpt } from './read-body.js';

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Defaults to the endpoint the requester was made for. */
  readonly url?: URL;
  readonly headers: Headers;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Safe to repeat after any network failure (see client/safe-methods.ts). */
  readonly idempotent: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Resends of one request an OAuthProvider may ask for (it gives up sooner: maxAttempts). */
const MAX_AUTH_RESENDS = 5;

/**
 * Sends HTTP requests for a transport: a fresh token on every attempt, the retry
 * policy, and redirects that never carry credentials to another origin.
 *
 * Retries (Go reference, WithHTTPRetry): 429 and 503, honouring `Retry-After`;
 * failures that prove the request never left; and, for requests that are safe
 * to repeat, any network failure — browsers hide the cause (`Failed to fetch`),
 * so there nothing else could ever be retried. Never a failure after a
 * `tools/call` may have reached the server: it could run twice.
 */
export class HttpRequester {
  readonly url: URL;
  readonly #options: StreamableHttpTransportOptions;
  #lastToken: string | undefined;
  #tokenEpoch = 0;

  constructor(url: URL, options: StreamableHttpTransportOptions) {
    this.url = url;
    this.#options = options;
  }

  /**
   * Names the credentials a request would carry now: it changes whenever the
   * token provider hands out a different token (asking it), and never holds the token.
   */
  async credentialKey(): Promise<string> {
    const { tokenProvider, auth } = this.#options;
    if (tokenProvider) this.#noteToken(await tokenProvider({ signal: new AbortController().signal }));
    const oauth = auth ? `|oauth-${await auth.credentialKey(this.url)}` : '';
    return `token-${this.#tokenEpoch}${oauth}`;
  }

  #noteToken(token: string): void {
    if (token === this.#lastToken) return;
    this.#lastToken = token;
    this.#tokenEpoch++;
  }

  async send(request: HttpRequest): Promise<Response> {
    const { auth } = this.#options;
    for (let resends = 0; ; resends++) {
      // One object per send: the provider matches the headers it gave to the response it sees.
      const described = { method: request.method, url: request.url ?? this.url };
      const response = await this.#sendWithRetries(request, described);
      if (!auth) return response;
      let verdict: 'retry' | 'done';
      try {
        verdict = await auth.onResponse(response, described);
      } catch (error) {
        await response.body?.cancel().catch(() => {});
        throw error;
      }
      // Refused with 401/403, so never run: resending is safe. The provider bounds
      // its attempts (maxAttempts); the cap here only guards against one that never stops.
      if (verdict !== 'retry' || resends >= MAX_AUTH_RESENDS) return response;
      await response.body?.cancel().catch(() => {});
    }
  }

  async #sendWithRetries(request: HttpRequest, described: { method: string; url: URL }): Promise<Response> {
    const retry = this.#options.retry ?? {};
    const maxRetries = retry.maxRetries ?? 0;
    const maxDelay = retry.maxDelay ?? DEFAULT_MAX_DELAY;
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(request.headers);
      await this.#authorize(headers, request.signal);
      if (this.#options.auth) {
        for (const [name, value] of Object.entries(await this.#options.auth.headers(described)))
          headers.set(name, value);
      }
      let response: Response;
      try {
        response = await this.#follow(request, headers);
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        const failure = this.#networkError(error, request);
        const repeatable = failure.delivered === 'no' || request.idempotent;
        if (!repeatable || attempt >= maxRetries) throw failure;
        await sleep(backoffDelay(attempt, retry.baseDelay ?? DEFAULT_BASE_DELAY, maxDelay), request.signal);
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < maxRetries) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        // A server asking for a longer pause than we wait gets its error, not a hammering.
        if (retryAfter === undefined || retryAfter <= maxDelay) {
          await response.body?.cancel().catch(() => {});
          const delay = retryAfter ?? backoffDelay(attempt, retry.baseDelay ?? DEFAULT_BASE_DELAY, maxDelay);
          await sleep(delay, request.signal);
          continue;
        }
      }
      return response;
    }
  }

  /** An HttpError for a response that is not a success, with a bounded excerpt of its body. */
  async failure(response: Response, url = this.url): Promise<HttpError> {
    return new HttpError(response.status, url.href, await bodyExcerpt(response));
  }

  async #authorize(headers: Headers, signal: AbortSignal): Promise<void> {
    const { tokenProvider, authHeader } = this.#options;
    if (!tokenProvider) return;
    const token = await tokenProvider({ signal });
    this.#noteToken(token);
    if (authHeader) {
      headers.set(authHeader, token);
    } else {
      headers.set('authorization', `Bearer ${token}`);
    }
  }

  /** Follows redirects itself so it can drop credentials when one leaves the origin. */
  async #follow(request: HttpRequest, headers: Headers): Promise<Response> {
    const fetchFn = this.#options.fetch ?? globalThis.fetch;
    let target = request.url ?? this.url;
    let method = request.method;
    let body = request.body;
    for (let hop = 0; ; hop++) {
      const init: RequestInit = { method, headers, signal: request.signal, redirect: 'manual' };
      if (body !== undefined) init.body = body;
      const response = await fetchFn(target, init);
      if (response.type === 'opaqueredirect') {
        // Browsers hide the target of a manual redirect. Let the browser follow
        // it: the Fetch standard drops Authorization across origins, and our
        // custom auth header goes away here since the browser would keep it.
        this.#dropCredentials(headers);
        return fetchFn(target, { ...init, redirect: 'follow' });
      }
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || hop >= MAX_REDIRECTS) return response;
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, target);
      if (next.origin !== this.url.origin) {
        this.#dropCredentials(headers);
      } else if (headers.has('dpop') && this.#options.auth) {
        // A DPoP proof names its URL (htu): a same-origin hop needs a fresh one.
        const fresh = await this.#options.auth.headers({ method: response.status === 303 ? 'GET' : method, url: next });
        for (const [name, value] of Object.entries(fresh)) headers.set(name, value);
      }
      if (response.status === 303) {
        method = 'GET';
        body = undefined;
      }
      target = next;
    }
  }

  #dropCredentials(headers: Headers): void {
    headers.delete('authorization');
    // A DPoP proof is bound to this origin's URL and to the token (RFC 9449 §4.2).
    headers.delete('dpop');
    const { authHeader } = this.#options;
    if (authHeader) headers.delete(authHeader);
  }

  #networkError(error: unknown, request: HttpRequest): NetworkError {
    const url = (request.url ?? this.url).href;
    if (provesNotDelivered(error)) {
      return new NetworkError(`could not connect to ${url}: ${describe(error)}`, url, 'no', { cause: error });
    }
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    const inBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined';
    if (inBrowser && origin && origin !== new URL(url).origin && error instanceof TypeError) {
      return new CorsError(url, origin, { cause: error });
    }
    return new NetworkError(`request to ${url} failed: ${describe(error)}`, url, 'unknown', { cause: error });
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

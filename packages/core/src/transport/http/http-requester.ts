import { HttpError } from '../../errors/http-error.js';
import { backoffDelay, parseRetryAfter, sleep } from './backoff.js';
import { DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, type StreamableHttpTransportOptions } from './options.js';
import { bodyExcerpt, discard } from './read-body.js';

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
        await discard(response);
        throw error;
      }
      // Refused with 401/403, so never run: resending is safe. The provider bounds
      // its attempts (maxAttempts); the cap here only guards against one that never stops.
      if (verdict !== 'retry' || resends >= MAX_AUTH_RESENDS) return response;
      await discard(response);
    }
  }

  async #sendWithRetries(request: HttpRequest, described: { method: string; url: URL }): Promise<Response> {
    const { retry = {}, auth } = this.#options;
    const { signal } = request;
    const maxRetries = retry.maxRetries ?? 0;
    const maxDelay = retry.maxDelay ?? DEFAULT_MAX_DELAY;
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(request.headers);
      await this.#authorize(headers, signal);
      if (auth) setAll(headers, await auth.headers(described));
      let retryAfter: number | undefined;
      try {
        const response = await this.#follow(request, headers);
        const { status } = response;
        if ((status !== 429 && status !== 503) || attempt >= maxRetries) return response;
        retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        // A server asking for a longer pause than we wait gets its error, not a hammering.
        if (retryAfter !== undefined && retryAfter > maxDelay) return response;
        await discard(response);
      } catch (error) {
        // Only the fetch throws here: a network failure, retried when that is safe.
        if (signal.aborted) throw signal.reason;
        const { networkFailure } = await import('./network-failure.js');
        const failure = networkFailure(error, (request.url ?? this.url).href);
        const repeatable = failure.delivered === 'no' || request.idempotent;
        if (!repeatable || attempt >= maxRetries) throw failure;
      }
      await sleep(retryAfter ?? backoffDelay(attempt, retry.baseDelay ?? DEFAULT_BASE_DELAY, maxDelay), signal);
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
      await discard(response);
      const next = new URL(location, target);
      if (next.origin !== this.url.origin) {
        this.#dropCredentials(headers);
      } else if (headers.has('dpop') && this.#options.auth) {
        // A DPoP proof names its URL (htu): a same-origin hop needs a fresh one.
        setAll(
          headers,
          await this.#options.auth.headers({ method: response.status === 303 ? 'GET' : method, url: next }),
        );
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
}

/** Sets every header of `values` on `headers`, replacing what was there. */
export function setAll(headers: Headers, values: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(values)) headers.set(name, value);
}

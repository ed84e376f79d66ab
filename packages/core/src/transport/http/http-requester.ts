import { LimitError } from '../../errors/limit-error.js';
import { setAll } from '../../util/headers.js';
import { discard } from '../../util/read-body.js';
import { httpError } from './error-response.js';
import type { HttpRequest, Requester } from './http-request.js';
import { recovery } from './on-demand.js';
import type { StreamableHttpTransportOptions } from './options.js';
import type { FailedAttempt, SentRequest } from './recovery/index.js';

/**
 * Resends of one request an AuthProvider may ask for, fixed (not an option; an
 * OAuthProvider gives up sooner, at its `maxAttempts`). It only guards against
 * a provider that never stops asking: one more fails the request with
 * `LimitError('maxAuthRetries', 5)`, the refusal's HttpError as cause.
 */
const MAX_AUTH_RESENDS = 5;

/**
 * Sends HTTP requests for a transport: a fresh token on every attempt, the
 * resends an AuthProvider asks for, the retry policy once an attempt fails, and
 * redirects that never carry credentials to another origin (the last two in
 * recovery/, loaded when first needed).
 */
export class HttpRequester implements Requester {
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

  /**
   * Sends `request` and resolves with the response that stands: after the retry
   * policy (429, 503, network failures), redirects, and the resends `auth` asks
   * for. Rejects with the network failure that stands, the call's abort reason,
   * or a LimitError past the auth resend or redirect cap.
   */
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
      if (verdict !== 'retry') return response;
      // Refused with 401/403, so never run: resending is safe, up to a cap.
      if (resends >= MAX_AUTH_RESENDS) {
        const gaveUp = `${described.url.href}: too many resends for authorization`;
        throw new LimitError('maxAuthRetries', MAX_AUTH_RESENDS, gaveUp, {
          cause: await httpError(response, described.url),
        });
      }
      await discard(response);
    }
  }

  async #sendWithRetries(request: HttpRequest, described: { method: string; url: URL }): Promise<Response> {
    const { retry, auth, tokenProvider } = this.#options;
    const { signal } = request;
    for (let attempt = 0; ; attempt++) {
      // Credentials go on a copy per attempt; without any, the request's own headers are sent as they are.
      const headers = tokenProvider || auth ? new Headers(request.headers) : request.headers;
      await this.#authorize(headers, signal);
      if (auth) setAll(headers, await auth.headers(described));
      let failed: FailedAttempt;
      try {
        const response = await this.#follow(request, headers);
        // Only 429 and 503 may be retried.
        if (response.status !== 429 && response.status !== 503) return response;
        failed = { response };
      } catch (error) {
        // Only the fetch throws here (a network failure), or redirects past their cap (a LimitError, which stands).
        if (signal.aborted) throw signal.reason;
        failed = { error };
      }
      // The attempt failed: the retry policy, loaded now, decides what follows.
      const { afterFailedAttempt } = await recovery();
      const settled = await afterFailedAttempt(failed, attempt, request, described.url, retry);
      if (settled) return settled;
    }
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

  /** Follows redirects itself (recovery/redirects.ts) so it can drop credentials when one leaves the origin. */
  async #follow(request: HttpRequest, headers: Headers): Promise<Response> {
    const target = request.url ?? this.url;
    const init: SentRequest = { method: request.method, headers, signal: request.signal, redirect: 'manual' };
    if (request.body !== undefined) init.body = request.body;
    const response = await (this.#options.fetch ?? globalThis.fetch)(target, init);
    const { status } = response;
    // Not a redirect, the common case: the code that follows one loads when one comes.
    if (response.type !== 'opaqueredirect' && (status < 300 || status > 399)) return response;
    const { followRedirects } = await recovery();
    return followRedirects(response, target, init, this.url.origin, this.#options);
  }
}

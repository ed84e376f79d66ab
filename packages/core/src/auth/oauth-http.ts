import * as v from 'valibot';
import { AuthError } from '../errors/auth-error.js';
import { LATEST_PROTOCOL_VERSION } from '../protocol/versions.js';
import { lazy } from '../util/lazy.js';
import { timerDelay } from '../util/timers.js';
import type { OAuthAnswer } from './oauth-fetch.js';
import type { OAuthOptions, OAuthUrlPurpose } from './options.js';
import { addressRefused, assertSecureEndpoint, refusedAddress } from './secure-endpoint.js';

/** What a metadata GET found: the parsed document, or why there is none (for the error message). */
export type JsonLookup<T> = { readonly found: T } | { readonly missing: string };

/** Defaults of OAuthOptions.limits (documented there). */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 1;

/** ofetch and the request code load with the first OAuth request, never in a program without OAuth. */
const requests = lazy(() => import('./oauth-fetch.js'));

const WHAT: Readonly<Record<OAuthUrlPurpose, string>> = {
  resource_metadata: 'protected resource metadata',
  authorization_server_metadata: 'authorization server metadata',
  registration: 'registration endpoint',
  token: 'token endpoint',
  authorization: 'authorization endpoint',
};

/**
 * Every URL OAuth fetches or opens for one MCP server goes through here: first
 * the built-in rules (secure-endpoint.ts), then the app's `allowUrl`, final; the
 * request itself is bounded in size, time and retries (oauth-fetch.ts).
 */
export class OAuthHttp {
  readonly #options: OAuthOptions;
  readonly #fetch: typeof fetch;
  /** The MCP server the requests are for: decides whether plain http is acceptable. */
  readonly serverUrl: URL;

  constructor(options: OAuthOptions, serverUrl: URL, fetchFn: typeof fetch = fetchOf(options.fetch)) {
    this.#options = options;
    this.serverUrl = serverUrl;
    this.#fetch = fetchFn;
  }

  /** The same server and options with another fetch (DPoP watches every token answer's nonce). */
  withFetch(fetchFn: typeof fetch): OAuthHttp {
    return new OAuthHttp(this.#options, this.serverUrl, fetchFn);
  }

  /**
   * Refuses a URL that is not https (see assertSecureEndpoint); then the app's
   * `allowUrl` has the final word, told whether the URL names an address the
   * server may not point at (`refusedAddress`). Without one, such a URL is refused.
   */
  async check(endpoint: string | URL, purpose: OAuthUrlPurpose): Promise<URL> {
    const url = assertSecureEndpoint(endpoint, this.serverUrl, WHAT[purpose]);
    const refused = refusedAddress(url, this.serverUrl);
    const allowUrl = this.#options.allowUrl;
    if (!allowUrl) {
      if (refused) throw addressRefused(url, this.serverUrl, WHAT[purpose], refused);
    } else if (!(await allowUrl(new URL(url), purpose, { refused }))) {
      throw new AuthError('url_refused', `the ${WHAT[purpose]} ${url.origin}${url.pathname} was refused by allowUrl`);
    }
    return url;
  }

  /**
   * GETs a metadata document and validates it. A refusal, a network failure (a
   * browser reports a CORS-less 404 that way), a redirect or an invalid body is
   * `missing`, so discovery can try its next URL. A URL the rules refuse, a body
   * too large and a timeout are errors: a server that does that is not merely
   * missing its metadata.
   *
   * A GET to the MCP server's own origin carries `MCP-Protocol-Version` with the
   * latest revision this client speaks (the one it offers first); when that GET
   * fails on the network, it is asked once more without the header.
   */
  async getJson<T>(
    endpoint: string,
    purpose: 'resource_metadata' | 'authorization_server_metadata',
    schema: v.GenericSchema<unknown, T>,
  ): Promise<JsonLookup<T>> {
    const url = await this.check(endpoint, purpose);
    const { oauthFetch } = await requests();
    const headers = new Headers({ accept: 'application/json' });
    // 2025-03-26 "Server Metadata Discovery Headers" (SHOULD): the MCP server may answer by protocol version.
    // Only to its own origin: an authorization server elsewhere has no use for it, and a browser would
    // ask it for a CORS preflight first.
    if (url.origin === this.serverUrl.origin) headers.set('mcp-protocol-version', LATEST_PROTOCOL_VERSION);
    let answer: OAuthAnswer | undefined;
    while (!answer) {
      try {
        answer = await oauthFetch(this.#settings(), {
          url,
          method: 'GET',
          headers,
          what: `the ${WHAT[purpose]}`,
          failure: 'metadata_not_found',
        });
      } catch (error) {
        if (!(error instanceof AuthError) || error.code !== 'metadata_not_found') throw error;
        // A browser refuses a cross-origin GET whose CORS preflight does not allow the header,
        // as a network failure: ask once more as a plain GET, which needs no preflight.
        if (!headers.has('mcp-protocol-version')) return { missing: error.message };
        headers.delete('mcp-protocol-version');
      }
    }
    if (answer.status < 200 || answer.status >= 300) return { missing: `${url.href}: HTTP ${answer.status}` };
    const parsed = v.safeParse(schema, answer.body);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue.path?.map((item) => String(item.key)).join('.') ?? '';
      return {
        missing: `${url.href}: invalid document${where ? ` (${where}: ${issue.message})` : `: ${issue.message}`}`,
      };
    }
    return { found: parsed.output };
  }

  /** POSTs to a registration or token endpoint `url` that check() returned; never retried, never redirected. */
  async post(url: URL, purpose: 'registration' | 'token', headers: Headers, body: string): Promise<OAuthAnswer> {
    const { oauthFetch } = await requests();
    return oauthFetch(this.#settings(), {
      url,
      method: 'POST',
      headers,
      body,
      what: `the ${WHAT[purpose]}`,
      failure: purpose === 'token' ? 'token_request_failed' : 'registration_failed',
    });
  }

  #settings() {
    const limits = this.#options.limits;
    return {
      fetch: this.#fetch,
      maxResponseBytes: limits?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeout: timeoutOf(limits?.timeout ?? DEFAULT_TIMEOUT_MS),
      retries: limits?.retries ?? DEFAULT_RETRIES,
    };
  }
}

/** limits.timeout as a timer takes it: 0, Infinity (or NaN, or less than 0) mean none; longer than a timer can wait, the longest it can. */
function timeoutOf(ms: number): number | undefined {
  return ms > 0 && ms < Infinity ? timerDelay(ms) : undefined;
}

/** The fetch to use now: the injected one, else the global read at call time. */
export function fetchOf(injected: typeof fetch | undefined): typeof fetch {
  return injected ?? ((input, init) => globalThis.fetch(input, init));
}

import { AuthError } from '../errors/auth-error.js';
import type { AuthRequest } from '../transport/auth-provider.js';
import { DpopSession } from './dpop.js';
import { fetchOf } from './oauth-http.js';
import type { OAuthOptions } from './options.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './schemas.js';
import type { TokenEndpointContext } from './token-endpoint.js';
import type { StoredTokens } from './tokens.js';
import type { AuthChallenge } from './www-authenticate.js';

/**
 * When an `OAuthProvider` binds its tokens to a DPoP key, and what that adds to
 * its requests (RFC 9449). Tokens are DPoP-bound when a resource demands it, or
 * when the app opted in and the authorization server advertises DPoP. A
 * DPoP-bound token goes out with a fresh proof on every request. The nonces
 * servers hand out are kept, and a refusal asking for a new one is resent once.
 * The key is made on first use, one per provider.
 */
export class DpopPolicy {
  readonly #options: OAuthOptions;
  #session: DpopSession | undefined;
  /** Which nonce each attempt's proof carried (undefined: none), to tell a new nonce from a spent one. */
  readonly #proved = new WeakMap<AuthRequest, string | undefined>();
  /** Issuers whose resource servers asked for DPoP-bound tokens. */
  readonly #demanded = new Set<string>();

  /** The policy `options.dpop` sets; token requests go through `options.fetch`. */
  constructor(options: OAuthOptions) {
    this.#options = options;
  }

  /**
   * The headers that carry `tokens` on one request: `Bearer`, or for a
   * DPoP-bound token the `DPoP` scheme with a fresh proof bound to this
   * method, URL and token (RFC 9449 §7.1).
   */
  async headers(request: AuthRequest, tokens: StoredTokens): Promise<Record<string, string>> {
    if (tokens.token_type.toLowerCase() !== 'dpop') return { authorization: `Bearer ${tokens.access_token}` };
    const session = this.#dpopSession();
    this.#proved.set(request, session.nonceFor(request.url));
    return {
      authorization: `DPoP ${tokens.access_token}`,
      dpop: await session.proof(request.method, request.url, tokens.access_token),
    };
  }

  /** Keeps the `DPoP-Nonce` a response carries, once a DPoP key exists; returns it. */
  observe(response: Response, request: AuthRequest): string | undefined {
    return this.#session?.observe(response, request.url);
  }

  /**
   * Whether a refusal only wants its nonce in the proof (RFC 9449 §9): it says
   * `use_dpop_nonce`, the request carried a proof, and the response brought a
   * nonce that proof did not use. Such a request is resent once.
   */
  wantsNewNonce(request: AuthRequest, challenge: AuthChallenge | undefined, nonce: string | undefined): boolean {
    return (
      challenge?.error === 'use_dpop_nonce' &&
      this.#proved.has(request) &&
      nonce !== undefined &&
      nonce !== this.#proved.get(request)
    );
  }

  /**
   * Remembers that the resource whose tokens `issuer` grants demands DPoP-bound
   * ones (RFC 9449 §7.1, RFC 9728 §2). It says so by challenging with `DPoP`
   * and offering no `Bearer`, or by requiring them in its metadata.
   */
  noteResource(
    issuer: string,
    challenge: AuthChallenge | undefined,
    resource: ProtectedResourceMetadata | undefined,
  ): void {
    if (challenge?.scheme.toLowerCase() === 'dpop' || resource?.dpop_bound_access_tokens_required === true) {
      this.#demanded.add(issuer);
    }
  }

  /**
   * The DPoP session to get tokens from this authorization server with, or
   * undefined for Bearer tokens. DPoP is needed when the resource demanded it
   * or `refreshing` is itself DPoP-bound (its refresh needs a proof from the
   * same key, RFC 9449 §5). It is chosen when the app opted in and the server
   * advertises it (RFC 9449 §5.1). A server that cannot take our proofs when
   * DPoP is needed is an error.
   */
  sessionFor(
    metadata: AuthorizationServerMetadata,
    issuer: string,
    refreshing?: StoredTokens,
  ): DpopSession | undefined {
    const setting = this.#options.dpop;
    if (setting === false) return undefined;
    const demanded = refreshing?.token_type.toLowerCase() === 'dpop' || this.#demanded.has(issuer);
    const advertised = metadata.dpop_signing_alg_values_supported !== undefined;
    if (!demanded && !(setting && advertised)) return undefined;
    const session = this.#dpopSession();
    if (session.acceptedBy(metadata)) return session;
    if (!demanded) return undefined;
    throw new AuthError(
      'dpop_failed',
      `the server needs DPoP-bound tokens, but ${metadata.issuer} does not take ${session.alg} proofs`,
    );
  }

  /**
   * `context` for token requests made with `session`. Each attempt carries a
   * fresh proof, every answer's `DPoP-Nonce` is kept, and a `use_dpop_nonce`
   * refusal is tried once more with the nonce (RFC 9449 §5, §8). Without a
   * session the context is returned as it is.
   */
  tokenContext(context: TokenEndpointContext, session: DpopSession | undefined): TokenEndpointContext {
    if (!session) return context;
    const fetchFn = fetchOf(this.#options.fetch);
    return {
      ...context,
      http: context.http.withFetch(async (input, init) => {
        const response = await fetchFn(input, init);
        session.observe(response, new URL(input instanceof Request ? input.url : input));
        return response;
      }),
      headers: async (endpoint) => ({ dpop: await session.proof('POST', endpoint) }),
      retry: (_answer, error) => error.error === 'use_dpop_nonce',
    };
  }

  #dpopSession(): DpopSession {
    const setting = this.#options.dpop;
    this.#session ??= new DpopSession(typeof setting === 'object' ? setting : {});
    return this.#session;
  }
}

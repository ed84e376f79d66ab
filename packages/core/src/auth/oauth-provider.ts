import * as v from 'valibot';
import { AuthError } from '../errors/auth-error.js';
import { LimitError } from '../errors/limit-error.js';
import type { AuthProvider, AuthRequest } from '../transport/auth-provider.js';
import { isLoopback } from '../util/loopback.js';
import { discoverAuthorizationServer, discoverResource } from './discovery.js';
import { DpopPolicy } from './dpop-policy.js';
import { redeemCode, stateOf } from './grants/authorization-code.js';
import type { GrantContext } from './grants/grant-handler.js';
import { assertIssuerAllowed, chooseIssuer, grantClient, handlerFor } from './grants/index.js';
import { OAuthHttp } from './oauth-http.js';
import type { OAuthOptions } from './options.js';
import { PendingAuthorizations } from './pending-authorizations.js';
import { assertRedirectUri } from './redirect-uri.js';
import { findClient, resolveClient } from './registration.js';
import type { AuthorizationServerMetadata, TokenResponse } from './schemas.js';
import { selectScope } from './scope.js';
import { endpointKey, type ServerBinding, ServerBindings } from './server-bindings.js';
import { MemoryOAuthStore, type OAuthStore, storeKeys } from './store.js';
import { StoredKeys } from './stored-keys.js';
import { requestToken } from './token-endpoint.js';
import { isExpired, type StoredTokens, StoredTokensSchema, toStoredTokens } from './tokens.js';
import { type AuthChallenge, authChallenge } from './www-authenticate.js';

const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * One MCP server's authorization state. Each server has its own: one server's
 * user taking their time, or its refusals, never hold up or count against another.
 */
interface ServerFlow {
  /** The one authorization or refresh running for this server; its requests wait for it. */
  flow: Promise<void> | undefined;
  /** Authorizations and refreshes since this server's last successful response. */
  attempts: number;
  /** Bumped whenever this server's tokens change (see onResponse). */
  generation: number;
}

/**
 * OAuth 2.1 for MCP servers over HTTP (MCP "Authorization", 2025-03-26 …
 * 2026-07-28): discovery, registration, the grant, refresh and step-up, behind
 * two calls the transport makes — `headers()` before every request and
 * `onResponse()` after it. Pass it as `new StreamableHttpTransport(url, { auth })`.
 * Web standards only (fetch, crypto.subtle): browsers, Workers and Node alike.
 */
export class OAuthProvider implements AuthProvider {
  readonly #options: OAuthOptions;
  readonly #store: OAuthStore;
  readonly #keys: StoredKeys;
  readonly #bindings: ServerBindings;
  readonly #pending: PendingAuthorizations;
  readonly #metadata = new Map<string, Promise<AuthorizationServerMetadata>>();
  /** Per MCP endpoint (endpointKey of its binding's serverUrl). */
  readonly #servers = new Map<string, ServerFlow>();
  /**
   * Each request attempt's server, which generation of its tokens it carried
   * (see onResponse) and the access token itself: a response finds its server
   * here, without asking the store again.
   */
  readonly #sent = new WeakMap<AuthRequest, Sent>();
  #identity = 0;
  /** When tokens are DPoP-bound, and the proofs and nonces that go with them. */
  readonly #dpop: DpopPolicy;

  /** A provider for the transport's `auth` option; nothing is fetched until a server asks for authorization. */
  constructor(options: OAuthOptions = {}) {
    const retries = options.limits?.retries;
    // Infinity would retry a failing metadata GET for ever.
    if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0)) {
      throw new RangeError(`OAuthOptions.limits.retries must be a whole number, 0 or more (got ${retries})`);
    }
    if (options.redirectUri !== undefined) assertRedirectUri(options.redirectUri, 'OAuthOptions.redirectUri');
    const registered = options.clientMetadata?.redirect_uris;
    if (Array.isArray(registered)) {
      for (const [i, uri] of registered.entries())
        assertRedirectUri(uri, `OAuthOptions.clientMetadata.redirect_uris[${i}]`);
    }
    this.#options = options;
    this.#store = options.store ?? new MemoryOAuthStore();
    this.#keys = new StoredKeys(this.#store);
    this.#bindings = new ServerBindings(this.#store, this.#keys);
    this.#pending = new PendingAuthorizations(this.#store, this.#keys);
    this.#dpop = new DpopPolicy(options);
  }

  /**
   * Headers for one request: `Authorization` with the current token (refreshed
   * first when it has expired), or nothing before the first authorization. Waits
   * while an authorization for the same server is under way, so its requests
   * queue behind the user; other servers' requests do not.
   */
  async headers(request: AuthRequest): Promise<Record<string, string>> {
    let binding = await this.#bindings.get(request.url);
    const server = this.#serverFlow(request.url, binding);
    if (server.flow) {
      await server.flow.catch(() => {});
      // The flow may have bound this server (its first authorization): look again.
      binding = await this.#bindings.get(request.url);
    }
    // Read before the tokens: if they change meanwhile, onResponse sees this request carried older ones.
    let generation = server.generation;
    let tokens = binding && (await this.#tokens(binding));
    if (binding && tokens && isExpired(tokens) && tokens.refresh_token) {
      const expired = tokens;
      await this.#single(server, () => this.#refresh(binding, expired)).catch(() => {});
      generation = server.generation;
      tokens = await this.#tokens(binding);
    }
    this.#sent.set(request, {
      server: this.#serverFlow(request.url, binding),
      generation,
      accessToken: tokens?.access_token,
    });
    return tokens ? this.#dpop.headers(request, tokens) : {};
  }

  /**
   * Sees every response. A 401, or a 403 `insufficient_scope` (2025-11-25 step-up),
   * gets fresh tokens — by refresh when that can help, else by the grant — and
   * returns 'retry': the transport sends the request again. The request was
   * refused, never run, so sending it again is safe. Throws an AuthError when no
   * token can be had; gives up after `maxAttempts` in a row without success,
   * with a `LimitError` naming `maxAttempts`.
   */
  async onResponse(response: Response, request: AuthRequest): Promise<'retry' | 'done'> {
    const nonce = this.#dpop.observe(response, request);
    const sent = this.#sent.get(request);
    if (response.status !== 401 && response.status !== 403) {
      if (response.ok) (sent?.server ?? (await this.#serverOf(request.url))).attempts = 0;
      return 'done';
    }
    // A refusal looks again: a flow may have bound this server since the request left.
    const server = await this.#serverOf(request.url);
    const challenge = authChallenge(response.headers.get('www-authenticate'));
    if (response.status === 403 && challenge?.error !== 'insufficient_scope') return 'done';
    if (this.#dpop.wantsNewNonce(request, challenge, nonce)) return 'retry';
    // Tokens changed since this request left (another request's flow): just resend.
    if ((sent?.generation ?? -1) !== server.generation) return 'retry';
    if (server.flow) {
      await server.flow;
      return 'retry';
    }
    await this.#single(server, () => this.#recover(server, response.status, challenge, request.url, sent));
    return 'retry';
  }

  /**
   * Completes a full-page redirect flow: call it on the page the authorization
   * server redirected to, with that URL. The PKCE verifier, state and issuer were
   * saved in the store before the page left; the record is used once, and not
   * after `limits.pendingTtl`.
   */
  async finishAuthorization(callbackUrl: string | URL): Promise<void> {
    const callback = new URL(callbackUrl);
    const pending = await this.#pending.take(stateOf(callback));
    const serverUrl = new URL(pending.serverUrl);
    const http = new OAuthHttp(this.#options, serverUrl);
    // The record holds no secret: the client is found again as the flow found it.
    const client = await findClient({ options: this.#options, metadata: pending.metadata, store: this.#store });
    if (!client || client.client_id !== pending.clientId) {
      throw new AuthError('no_client', `the client that started the authorization with ${pending.issuer} is gone`);
    }
    const dpop = this.#dpop.sessionFor(pending.metadata, pending.issuer);
    const context = this.#dpop.tokenContext({ http, metadata: pending.metadata, client }, dpop);
    const response = await redeemCode(pending, callback, (params) => requestToken(context, params));
    const known = await this.#bindings.get(serverUrl);
    const binding: ServerBinding = {
      serverUrl: serverUrl.href,
      issuer: pending.issuer,
      resource: pending.resource,
      legacy: known?.issuer === pending.issuer ? known.legacy : false,
    };
    await this.#bindings.set(binding);
    await this.#save(binding, toStoredTokens(response, { clientId: client.client_id, requestedScope: pending.scope }));
    this.#identity++;
  }

  /**
   * Forgets every token, server binding and pending authorization stored through
   * this store, by this provider or an earlier one (a page before a reload), so
   * sign-out holds across reloads. Registered clients stay.
   */
  async signOut(): Promise<void> {
    const known = this.#bindings
      .forget()
      .flatMap((binding) => [
        storeKeys.server(endpointKey(new URL(binding.serverUrl))),
        storeKeys.tokens(binding.issuer, binding.resource),
      ]);
    await this.#keys.delete(...new Set([...(await this.#keys.list()), ...known]));
    for (const server of this.#servers.values()) server.generation++;
    this.#identity++;
  }

  /** Names who the requests to `url` act as, without the token: changes when a new authorization replaces it. */
  async credentialKey(url: URL): Promise<string> {
    const binding = await this.#bindings.get(url);
    return `${binding?.issuer ?? ''}#${this.#identity}`;
  }

  /** The state of the server a request goes to: by its binding's endpoint once known, else by the request's. */
  #serverFlow(url: URL, binding: ServerBinding | undefined): ServerFlow {
    const key = endpointKey(binding ? new URL(binding.serverUrl) : url);
    let server = this.#servers.get(key);
    if (!server) {
      server = { flow: undefined, attempts: 0, generation: 0 };
      this.#servers.set(key, server);
    }
    return server;
  }

  /** #serverFlow with the binding read now (from the store unless already known). */
  async #serverOf(url: URL): Promise<ServerFlow> {
    return this.#serverFlow(url, await this.#bindings.get(url));
  }

  /** Runs `work` as the single flow every request to this server waits for. */
  #single(server: ServerFlow, work: () => Promise<void>): Promise<void> {
    const flow = work().finally(() => {
      if (server.flow === flow) server.flow = undefined;
    });
    server.flow = flow;
    return flow;
  }

  /** Discovery, then refresh or a new grant, for a refusal of a request to `url` that carried `sent`. */
  async #recover(
    server: ServerFlow,
    status: number,
    challenge: AuthChallenge | undefined,
    url: URL,
    sent: Sent | undefined,
  ): Promise<void> {
    const maxAttempts = this.#options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (server.attempts >= maxAttempts) {
      throw new LimitError(
        'maxAttempts',
        maxAttempts,
        `the server at ${url.origin} still refuses (HTTP ${status}${challenge?.error ? `, ${challenge.error}` : ''}) after ${maxAttempts} authorizations`,
      );
    }
    server.attempts++;
    const known = await this.#bindings.get(url);
    const serverUrl = known ? new URL(known.serverUrl) : new URL(url.origin + url.pathname);
    const http = new OAuthHttp(this.#options, serverUrl);
    const grant = this.#options.grant ?? { type: 'authorization_code' as const };
    const info = await discoverResource(http, challenge?.resourceMetadata);
    const issuer = chooseIssuer(grant, info.authorizationServers);
    // A machine grant's credentials go only to an AS the app pinned: checked before anything reaches it.
    assertIssuerAllowed(grant, issuer);
    const metadata = await this.#metadataFor(issuer, info.legacy, http);
    const binding: ServerBinding = { serverUrl: serverUrl.href, issuer, resource: info.resource, legacy: info.legacy };
    await this.#bindings.set(binding);
    this.#dpop.noteResource(issuer, challenge, info.metadata);
    const previous = await this.#tokens(binding);
    // Tokens another provider on the store saved after the request left (a callback finished there, a
    // refresh in another tab): the refusal was of older ones or none, so the request is sent again with
    // these. Refreshing them would spend a token request, and a rotation, on tokens nobody has tried.
    if (previous && sent && previous.access_token !== sent.accessToken) return;

    if (status === 401 && previous?.refresh_token && !asksForMore(challenge?.scope, previous.scope)) {
      try {
        await this.#refresh(binding, previous);
        return;
      } catch {
        // A refresh token the AS no longer takes: authorize again below.
      }
    }
    const handler = handlerFor(grant);
    if (handler.interactive && (!this.#options.authorize || !this.#options.redirectUri)) {
      throw new AuthError(
        'no_redirect_handler',
        `${serverUrl.href} needs authorization by ${issuer}, but no authorize handler and redirectUri are set`,
      );
    }
    // Before registration: an AS that cannot take our proofs is refused up front.
    const dpop = this.#dpop.sessionFor(metadata, issuer);
    const store = this.#store;
    const client =
      grantClient(grant, this.#options, issuer) ??
      (await resolveClient({
        http,
        store,
        options: this.#options,
        metadata,
        grantTypes: handler.grantTypes,
      }));
    const scope = selectScope({
      challenge: challenge?.scope,
      configured: this.#options.scope,
      previous: previous?.client_id === client.client_id ? previous.scope : undefined,
      resource: info.metadata,
      server: metadata,
    });
    const context: GrantContext = {
      http,
      store,
      pending: this.#pending,
      options: this.#options,
      serverUrl,
      resource: info.resource,
      resourceMetadata: info.metadata,
      metadata,
      client,
      scope,
      requestToken: (params) => requestToken(this.#dpop.tokenContext({ http, metadata, client }, dpop), params),
    };
    const response: TokenResponse = await handler.obtain(grant, context);
    await this.#save(binding, toStoredTokens(response, { clientId: client.client_id, requestedScope: scope }));
    this.#identity++;
  }

  /**
   * Refreshes `tokens`. With a store that has `update`, inside it: another tab,
   * Worker or process sharing the store may have refreshed meanwhile, and the
   * authorization server rotates refresh tokens, so sending ours again would get
   * `invalid_grant` and sign the user out. Inside the update the stored tokens
   * are read again; if they are no longer the ones we set out to refresh, they
   * are taken as they are and the authorization server is not asked.
   */
  async #refresh(binding: ServerBinding, tokens: StoredTokens): Promise<void> {
    const key = storeKeys.tokens(binding.issuer, binding.resource);
    if (!this.#store.update) {
      await this.#save(binding, await this.#refreshed(binding, tokens, (kept) => this.#store.set(key, kept)));
      return;
    }
    let refused: unknown;
    await this.#store.update(key, async (current) => {
      const parsed = v.safeParse(StoredTokensSchema, current);
      // Gone (a sign-out elsewhere) or unreadable: refreshing would bring back what was removed.
      if (!parsed.success) throw new AuthError('token_request_failed', `no stored tokens to refresh for ${key}`);
      const stored = parsed.output;
      if (stored.access_token !== tokens.access_token || stored.refresh_token !== tokens.refresh_token) return stored;
      let kept: StoredTokens | undefined;
      try {
        return await this.#refreshed(binding, stored, async (withoutRefresh) => {
          kept = withoutRefresh;
        });
      } catch (error) {
        if (kept === undefined) throw error;
        // Thrown after the update, which stores the tokens without the dead refresh token.
        refused = error;
        return kept;
      }
    });
    if (refused !== undefined) throw refused;
    await this.#saved(binding, key);
  }

  /**
   * The tokens a refresh with the client that got `tokens` returns (RFC 6749 §6),
   * `resource` included (RFC 8707). A refresh token that will never work again is
   * dropped through `keep` before the error is thrown: one the authorization
   * server refuses (`invalid_grant`), or one whose client is no longer the
   * stored one (`no_client`, never sent), so the user authorizes again with the
   * stored client.
   */
  async #refreshed(
    binding: ServerBinding,
    tokens: StoredTokens,
    keep: (kept: StoredTokens) => Promise<void>,
  ): Promise<StoredTokens> {
    if (!tokens.refresh_token) throw new AuthError('token_request_failed', 'no refresh token');
    const http = new OAuthHttp(this.#options, new URL(binding.serverUrl));
    const metadata = await this.#metadataFor(binding.issuer, binding.legacy, http);
    const grant = this.#options.grant ?? { type: 'authorization_code' as const };
    const client =
      grantClient(grant, this.#options, binding.issuer) ??
      (await findClient({ options: this.#options, metadata, store: this.#store }));
    if (!client || client.client_id !== tokens.client_id) {
      // A refresh token is bound to the client it was issued to (RFC 6749 §6): with any other it can never
      // work, so it is not sent. Dropping it sends the next refusal straight to a new authorization.
      await keep(withoutRefreshToken(tokens));
      throw new AuthError(
        'no_client',
        `the client that obtained the tokens from ${binding.issuer} is no longer stored (another registration replaced it, or it was removed): authorize again`,
      );
    }
    try {
      const dpop = this.#dpop.sessionFor(metadata, binding.issuer, tokens);
      const response = await requestToken(this.#dpop.tokenContext({ http, metadata, client }, dpop), {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        resource: binding.resource,
      });
      return toStoredTokens(response, { clientId: client.client_id, requestedScope: undefined, previous: tokens });
    } catch (error) {
      if (isInvalidGrant(error)) await keep(withoutRefreshToken(tokens));
      throw error;
    }
  }

  /**
   * AS metadata per issuer, fetched once; a failed lookup is not remembered. Kept
   * apart for loopback and remote MCP servers, whose URL rules differ.
   */
  #metadataFor(issuer: string, legacy: boolean, http: OAuthHttp): Promise<AuthorizationServerMetadata> {
    const key = `${isLoopback(http.serverUrl) ? 'loopback' : 'remote'} ${issuer}`;
    let metadata = this.#metadata.get(key);
    if (!metadata) {
      metadata = discoverAuthorizationServer(http, issuer, legacy);
      metadata.catch(() => this.#metadata.delete(key));
      this.#metadata.set(key, metadata);
    }
    return metadata;
  }

  async #tokens(binding: ServerBinding): Promise<StoredTokens | undefined> {
    const parsed = v.safeParse(
      StoredTokensSchema,
      await this.#store.get(storeKeys.tokens(binding.issuer, binding.resource)),
    );
    return parsed.success ? parsed.output : undefined;
  }

  async #save(binding: ServerBinding, tokens: StoredTokens): Promise<void> {
    const key = storeKeys.tokens(binding.issuer, binding.resource);
    await this.#store.set(key, tokens);
    await this.#saved(binding, key);
  }

  /** After new tokens are stored under `key`: listed for sign-out, and requests that carried the old ones resend. */
  async #saved(binding: ServerBinding, key: string): Promise<void> {
    await this.#keys.add(key);
    this.#serverFlow(new URL(binding.serverUrl), binding).generation++;
  }
}

/** What a request attempt carried: its server's state, the generation of its tokens and their access token. */
interface Sent {
  readonly server: ServerFlow;
  readonly generation: number;
  readonly accessToken: string | undefined;
}

/** An authorization server's refusal of a refresh token for good. */
function isInvalidGrant(error: unknown): boolean {
  return error instanceof AuthError && error.oauthError === 'invalid_grant';
}

/** `tokens` without the refresh token, which the authorization server refused for good. */
function withoutRefreshToken(tokens: StoredTokens): StoredTokens {
  const { refresh_token: _dropped, ...rest } = tokens;
  return rest;
}

/** Whether a challenge names a scope the stored grant did not ask for (a refresh cannot add scope). */
function asksForMore(challenged: string | undefined, granted: string | undefined): boolean {
  if (!challenged) return false;
  const have = new Set((granted ?? '').split(/\s+/));
  return challenged.split(/\s+/).some((scope) => scope && !have.has(scope));
}

import { type AuthProvider, type AuthRequest, type OAuthOptions, OAuthProvider, type OAuthStore } from '@mcp/core';
import {
  type LoopbackAuthorizeOptions,
  type LoopbackRedirect,
  loopbackAuthorize,
  loopbackRedirectUri,
} from '../loopback-redirect.js';

/** An OAuth store that also keeps the loopback redirect's port, so runs after this one redirect where it registered. */
export interface LoopbackPortStore extends OAuthStore {
  /** The port the stored registrations were made with, if one was saved. */
  loopbackPort(): Promise<number | undefined>;
  /** Saves `port` and forgets registrations made with another, so the next one names this port's redirect URI. */
  useLoopbackPort(port: number): Promise<void>;
}

/** What {@link SharedPortAuth} needs besides its store. */
export interface SharedPortOptions {
  /** For each loopback redirect: the browser and the Ctrl+C signal. */
  readonly loopback: LoopbackAuthorizeOptions;
  /** For each OAuthProvider, except what this class sets (store, redirect URI, authorize). */
  readonly oauth: Omit<OAuthOptions, 'store' | 'redirectUri' | 'authorize'>;
  /** Told the authorization URL just before the browser opens at it. */
  readonly announce: (authorizationUrl: URL) => void;
}

/**
 * How long a sign-in waits for the saved loopback port before taking another (ms):
 * another bridge on the same store holds it only through its own sign-in, which
 * is short unless that bridge is waiting for its browser.
 */
const PORT_WAIT = 2000;

/** The saved port was taken at sign-in: `loopback` holds another, and the registration must name it. */
class PortMoved extends Error {
  /** The move, done once for every request that waited on this sign-in. */
  moved: Promise<void> | undefined;

  constructor(readonly loopback: LoopbackRedirect) {
    super(`the saved loopback port is taken; signing in on ${loopback.redirectUri}`);
  }
}

/**
 * OAuth for bridges sharing one store. They share its saved loopback port (the
 * registered redirect URI), so each listens on it only through its own sign-in:
 * bound before the browser opens, closed once the callback came. A sign-in that
 * finds the port taken (for {@link PORT_WAIT}: another bridge's browser, or any
 * other local process) keeps a free port it has bound, saves it, and signs in
 * again with a registration naming it. So the browser is only ever sent to a
 * port this bridge holds, and whoever took the saved one gets nothing.
 */
export class SharedPortAuth implements AuthProvider {
  readonly #store: LoopbackPortStore;
  readonly #options: SharedPortOptions;
  #provider: OAuthProvider;
  /** A listener bound before its sign-in (a free port taken at start or by a move), for the sign-in on its port. */
  #held: LoopbackRedirect | undefined;

  /** On the saved port; with none saved, on a free one, held for the first sign-in and saved now. */
  static async open(store: LoopbackPortStore, options: SharedPortOptions): Promise<SharedPortAuth> {
    const saved = await store.loopbackPort();
    if (saved !== undefined) return new SharedPortAuth(store, options, saved);
    const held = await loopbackAuthorize(options.loopback);
    try {
      await store.useLoopbackPort(portOf(held));
    } catch (error) {
      await held.close();
      throw error;
    }
    return new SharedPortAuth(store, options, portOf(held), held);
  }

  private constructor(store: LoopbackPortStore, options: SharedPortOptions, port: number, held?: LoopbackRedirect) {
    this.#store = store;
    this.#options = options;
    this.#held = held;
    this.#provider = this.#providerOn(port);
  }

  headers(request: AuthRequest): Promise<Record<string, string>> {
    return this.#provider.headers(request);
  }

  credentialKey(url: URL): Promise<string> {
    return this.#provider.credentialKey(url);
  }

  /** The provider's verdict; a sign-in that moved port makes it the provider on the new port, and the request is resent. */
  async onResponse(response: Response, request: AuthRequest): Promise<'retry' | 'done'> {
    try {
      return await this.#provider.onResponse(response, request);
    } catch (error) {
      if (!(error instanceof PortMoved)) throw error;
      error.moved ??= this.#move(error.loopback);
      await error.moved;
      return 'retry';
    }
  }

  /** Stops a listener still held for a sign-in that did not come. */
  async close(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    await held?.close();
  }

  async #move(loopback: LoopbackRedirect): Promise<void> {
    try {
      await this.#store.useLoopbackPort(portOf(loopback));
    } catch (error) {
      await loopback.close();
      throw error;
    }
    await this.#held?.close();
    this.#held = loopback;
    this.#provider = this.#providerOn(portOf(loopback));
  }

  #providerOn(port: number): OAuthProvider {
    return new OAuthProvider({
      ...this.#options.oauth,
      store: this.#store,
      redirectUri: loopbackRedirectUri(port),
      authorize: (authorizationUrl) => this.#signIn(port, authorizationUrl),
    });
  }

  /** Holds `port` (or learns it is taken) before the browser opens; lets it go once the callback came. */
  async #signIn(port: number, authorizationUrl: URL): Promise<string> {
    const held = this.#held;
    this.#held = undefined;
    let loopback: LoopbackRedirect;
    if (held && portOf(held) === port) loopback = held;
    else {
      await held?.close();
      loopback = await loopbackOn(port, this.#options.loopback);
      if (portOf(loopback) !== port) throw new PortMoved(loopback);
    }
    try {
      this.#options.announce(authorizationUrl);
      return await loopback.authorize(authorizationUrl);
    } finally {
      await loopback.close();
    }
  }
}

/** The loopback redirect on `port` once it is free (at most {@link PORT_WAIT}), else on any free port. */
async function loopbackOn(port: number, options: LoopbackAuthorizeOptions): Promise<LoopbackRedirect> {
  const deadline = Date.now() + PORT_WAIT;
  for (;;) {
    try {
      return await loopbackAuthorize({ ...options, port });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (Date.now() >= deadline) return loopbackAuthorize(options);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function portOf(loopback: LoopbackRedirect): number {
  return Number(new URL(loopback.redirectUri).port);
}

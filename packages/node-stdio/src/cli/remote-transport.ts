import { OAuthProvider, type OAuthStore, StreamableHttpTransport } from '@mcp/core';
import { type LoopbackAuthorizeOptions, type LoopbackRedirect, loopbackAuthorize } from '../loopback-redirect.js';
import type { OutputStream } from './format.js';
import { VERSION } from './version.js';

/** What the remote session needs from the command's surroundings. */
export interface RemoteIo {
  readonly stderr: OutputStream;
  /** Aborts a wait for the browser (Ctrl+C). */
  readonly signal?: AbortSignal;
  /** Opens the authorization URL; default the system browser (tests pass a fetch). */
  readonly openBrowser?: (url: string) => unknown;
}

/** What `mcp bridge` adds to a remote session (`mcp … --url` uses neither). */
export interface RemoteOptions {
  /** Where OAuth state lives (default: in memory, for this one command). */
  readonly store?: OAuthStore;
  /** Sent on every request (`--header`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** For the OAuth requests (metadata, registration, tokens): the store's, which serialises refreshes. */
  readonly fetch?: typeof fetch;
  /**
   * The loopback redirect's port, so the redirect URI stays the one registered
   * with the authorization server; when it stays taken for 2 s, any free port
   * (see `RemoteTransport.redirectUri`).
   */
  readonly loopbackPort?: number;
}

/**
 * How long a saved loopback port may stay taken before another is used (ms):
 * another bridge on the same store holds it only a moment, unless it is waiting
 * for its own browser.
 */
const PORT_WAIT = 2000;

/** The loopback redirect on `port` once it is free (at most {@link PORT_WAIT}), else on any free port. */
async function loopbackOn(port: number | undefined, options: LoopbackAuthorizeOptions): Promise<LoopbackRedirect> {
  if (port === undefined) return loopbackAuthorize(options);
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

/** A Streamable HTTP transport and what must be closed with it. */
export interface RemoteTransport {
  readonly transport: StreamableHttpTransport;
  /** The loopback redirect URI in use, when OAuth is on. */
  readonly redirectUri?: string;
  close(): Promise<void>;
}

/**
 * `mcp … --url <url>`: Streamable HTTP, with OAuth when the server asks for it
 * (401): the loopback redirect on 127.0.0.1 and the system browser (RFC 8252),
 * registered as a native client (2026-07-28 DCR `application_type`). Tokens live
 * in memory for this one command, or in `options.store`. The authorization URL is also printed, for a
 * machine where no browser opens.
 */
export async function remoteTransport(url: URL, io: RemoteIo, options: RemoteOptions = {}): Promise<RemoteTransport> {
  const loopbackOptions = {
    ...(io.signal && { signal: io.signal }),
    ...(io.openBrowser && { openBrowser: io.openBrowser }),
  };
  const loopback = await loopbackOn(options.loopbackPort, loopbackOptions);
  // With a store other bridges may share, the port is held only while the browser is out: authorize listens again.
  if (options.store) await loopback.close();
  const auth = new OAuthProvider({
    redirectUri: loopback.redirectUri,
    clientMetadata: { client_name: 'mcp command-line tool', application_type: 'native', software_version: VERSION },
    ...(options.store && { store: options.store }),
    ...(options.fetch && { fetch: options.fetch }),
    authorize: (authorizationUrl) => {
      io.stderr.write(`mcp: authorize in your browser: ${authorizationUrl.href}\n`);
      return loopback.authorize(authorizationUrl);
    },
  });
  const headers = options.headers;
  return {
    transport: new StreamableHttpTransport(url, { auth, ...(headers && { headers }) }),
    redirectUri: loopback.redirectUri,
    close: loopback.close,
  };
}

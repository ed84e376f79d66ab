import { OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { loopbackAuthorize } from '../loopback-redirect.js';
import type { OutputStream } from './format.js';
import { type LoopbackPortStore, SharedPortAuth } from './shared-port-auth.js';
import { VERSION } from './version.js';

/** What the remote session needs from the command's surroundings. */
export interface RemoteIo {
  readonly stderr: OutputStream;
  /** Aborts a wait for the browser (Ctrl+C). */
  readonly signal?: AbortSignal;
  /** Opens the authorization URL; default the system browser (tests pass a fetch). */
  readonly openBrowser?: (url: string) => unknown;
}

/** What the command line adds to a remote session. */
export interface RemoteOptions {
  /**
   * Where OAuth state and the loopback redirect's port live, shared with other
   * bridges (default: in memory, for this one command). See {@link SharedPortAuth}.
   */
  readonly store?: LoopbackPortStore;
  /** Sent on every request (`--header`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A bearer token (`--token-env`'s value) sent on every request instead of signing in with OAuth. */
  readonly token?: string;
  /** For the OAuth requests (metadata, registration, tokens): the store's, which serialises refreshes. */
  readonly fetch?: typeof fetch;
}

/** A Streamable HTTP transport and what must be closed with it. */
export interface RemoteTransport {
  readonly transport: StreamableHttpTransport;
  close(): Promise<void>;
}

/**
 * `mcp … --url <url>`: Streamable HTTP, with `--token-env`'s bearer token when
 * given, else with OAuth when the server asks for it (401): the loopback redirect on 127.0.0.1 and the system browser (RFC 8252),
 * registered as a native client (2026-07-28 DCR `application_type`). Tokens live
 * in memory for this one command, its loopback port held from here until it
 * closes; or in `options.store`, whose port other bridges share. The
 * authorization URL is also printed, for a machine where no browser opens.
 */
export async function remoteTransport(url: URL, io: RemoteIo, options: RemoteOptions = {}): Promise<RemoteTransport> {
  const loopbackOptions = {
    ...(io.signal && { signal: io.signal }),
    ...(io.openBrowser && { openBrowser: io.openBrowser }),
  };
  const oauth = {
    clientMetadata: { client_name: 'mcp command-line tool', application_type: 'native', software_version: VERSION },
    ...(options.fetch && { fetch: options.fetch }),
  } as const;
  const announce = (authorizationUrl: URL) =>
    io.stderr.write(`mcp: authorize in your browser: ${authorizationUrl.href}\n`);
  const { headers, token } = options;
  if (token !== undefined) {
    return {
      transport: new StreamableHttpTransport(url, { tokenProvider: () => token, ...(headers && { headers }) }),
      close: async () => {},
    };
  }
  if (options.store) {
    const auth = await SharedPortAuth.open(options.store, { loopback: loopbackOptions, oauth, announce });
    return {
      transport: new StreamableHttpTransport(url, { auth, ...(headers && { headers }) }),
      close: () => auth.close(),
    };
  }
  const loopback = await loopbackAuthorize(loopbackOptions);
  const auth = new OAuthProvider({
    ...oauth,
    redirectUri: loopback.redirectUri,
    authorize: (authorizationUrl) => {
      announce(authorizationUrl);
      return loopback.authorize(authorizationUrl);
    },
  });
  return {
    transport: new StreamableHttpTransport(url, { auth, ...(headers && { headers }) }),
    close: loopback.close,
  };
}

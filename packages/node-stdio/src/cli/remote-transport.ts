import { OAuthProvider, type OAuthStore, StreamableHttpTransport } from '@mcp/core';
import { loopbackAuthorize } from '../loopback-redirect.js';
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
}

/** A Streamable HTTP transport and what must be closed with it. */
export interface RemoteTransport {
  readonly transport: StreamableHttpTransport;
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
  const loopback = await loopbackAuthorize({
    ...(io.signal && { signal: io.signal }),
    ...(io.openBrowser && { openBrowser: io.openBrowser }),
  });
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
  return { transport: new StreamableHttpTransport(url, { auth, ...(headers && { headers }) }), close: loopback.close };
}

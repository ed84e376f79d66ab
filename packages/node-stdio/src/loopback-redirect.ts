import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AuthError } from '@mcp/core';
import { isLoopback } from '@mcp/core/transport';

/*
 * Any local process can connect to the listener, so it holds no connection
 * longer than a browser needs: a browser sends its request at once and reads
 * the page, and every answer closes its connection.
 */
/** A connection that has not sent a whole request head within this many ms is answered 408 and closed. */
export const LOOPBACK_HEADERS_TIMEOUT = 5_000;
/** A request not wholly received within this many ms is answered 408 and closed (a callback has no body). */
export const LOOPBACK_REQUEST_TIMEOUT = 10_000;
/** A connection silent for this many ms is closed, whatever state it is in. */
export const LOOPBACK_IDLE_TIMEOUT = 5_000;
/** How often the header and request timeouts are checked, in ms (Node's default, 30 s, would let them run late). */
const TIMEOUT_CHECK_INTERVAL = 1_000;
/**
 * Connections open at once. One more closes the oldest, so connections a local
 * process holds open cannot keep the browser out: it would have to outpace the
 * browser's request. A browser opens a few.
 */
export const LOOPBACK_MAX_CONNECTIONS = 32;
/** Bytes of one request head (request line and headers); a larger one is answered 431. */
export const LOOPBACK_MAX_HEADER_BYTES = 8_192;

/** Options of {@link loopbackAuthorize}. */
export interface LoopbackAuthorizeOptions {
  /** Port on 127.0.0.1 (default 0: any free port, fixed for the life of the returned handle). */
  readonly port?: number;
  /** Path of the redirect URI (default `/callback`). */
  readonly path?: string;
  /**
   * Shows the authorization URL to the user. Default: the system browser
   * (`xdg-open`, `open`, or `rundll32 url.dll,FileProtocolHandler` on Windows),
   * spawned without a shell. Tests pass `(url) => fetch(url)` against an
   * auto-approving authorization server.
   */
  readonly openBrowser?: (url: string) => unknown;
  /**
   * How long to wait for the browser to come back, in ms (default 300000). It must
   * be positive; `Infinity` waits as long as a timer can, about 24 days. This
   * is the only bound on callbacks with the wrong `state`: they are answered
   * and ignored however many come, as counting them would let any local
   * process end the user's authorization by sending a few.
   */
  readonly timeoutMs?: number;
  /** Stops waiting (Ctrl+C). */
  readonly signal?: AbortSignal;
}

/** A loopback redirect endpoint, ready to go into `OAuthOptions` (`redirectUri`, `authorize`). */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port><path>`: register this with the authorization server. */
  readonly redirectUri: string;
  /** Opens the browser at `authorizationUrl` and resolves with the callback URL the browser was sent to. */
  readonly authorize: (authorizationUrl: URL) => Promise<string>;
  /**
   * Stops listening, ending a pending authorization's wait. Until then the port
   * stays held, between authorizations too, so no other process can take the
   * registered redirect URI; the idle listener does not keep the process alive.
   */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_PATH = '/callback';

/**
 * The native-app redirect for a command-line client (RFC 8252 §7.3, MCP
 * 2025-11-25 "Security Best Practices"): listens on 127.0.0.1 only, opens the
 * system browser without a shell, and resolves with the first callback that
 * carries `code` or `error` and the `state` of the authorization URL. It settles
 * the moment that callback comes and closes every other connection then, so a
 * local process holding a connection open cannot delay it. The port is held
 * until `close()`: the next authorization (step-up) redirects to the same,
 * registered URI, and no other process can bind it in between.
 *
 * Any local process can reach 127.0.0.1, so a callback with another `state` (or
 * none) is refused with an error page and the wait goes on: it is not the
 * browser coming back from this authorization (RFC 6749 §10.12, CSRF), and
 * settling on it would hand an attacker's code, or a forged `error`, to the
 * flow. An authorization URL without `state` accepts only callbacks without one.
 */
export async function loopbackAuthorize(options: LoopbackAuthorizeOptions = {}): Promise<LoopbackRedirect> {
  const timeoutMs = waitBound(options.timeoutMs);
  const path = options.path ?? DEFAULT_PATH;
  const server = await listen(options.port ?? 0);
  const redirectUri = loopbackRedirectUri(portOf(server), path);
  /** The authorization waiting for the browser: the `state` it sent, and how to finish it. */
  let pending:
    | { readonly state: string | null; readonly resolve: (callbackUrl: string, socket: Socket) => void }
    | undefined;

  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', redirectUri);
    const answer = (status: number, text: string) => {
      response.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      response.end(`<!doctype html><meta charset="utf-8"><title>mcp</title><p>${text}</p>`);
    };
    if (url.pathname !== path) return answer(404, 'Not found.');
    const waiting = pending;
    if (!waiting) return answer(400, 'No authorization is in progress.');
    if (!url.searchParams.has('code') && !url.searchParams.has('error')) {
      return answer(400, 'This is not an authorization response.');
    }
    if (url.searchParams.get('state') !== waiting.state) {
      return answer(400, 'This response does not belong to the authorization in progress; it was ignored.');
    }
    pending = undefined;
    answer(200, 'Authorization finished. You can close this window and return to the terminal.');
    waiting.resolve(url.href, request.socket);
  });

  async function authorize(authorizationUrl: URL): Promise<string> {
    assertBrowsable(authorizationUrl);
    if (pending) throw new Error('another authorization is already waiting for the browser');
    if (!server.listening) throw new Error('the loopback redirect is closed');
    const signals = [AbortSignal.timeout(timeoutMs), options.signal].filter((signal) => signal !== undefined);
    const stop = AbortSignal.any(signals);
    let onStop: (() => void) | undefined;
    /** The browser's connection, left to close once its page is out. */
    let callbackSocket: Socket | undefined;
    server.ref();
    try {
      const callback = new Promise<string>((resolve, reject) => {
        pending = {
          state: authorizationUrl.searchParams.get('state'),
          resolve: (callbackUrl, socket) => {
            callbackSocket = socket;
            resolve(callbackUrl);
          },
        };
        onStop = () => reject(waitError(stop.reason, authorizationUrl, timeoutMs));
        if (stop.aborted) onStop();
        else stop.addEventListener('abort', onStop, { once: true });
      });
      await Promise.race([callback, (options.openBrowser ?? openSystemBrowser)(authorizationUrl.href)]);
      return await callback;
    } finally {
      if (onStop) stop.removeEventListener('abort', onStop);
      pending = undefined;
      // Whatever else is connected now cannot finish this authorization: cut it rather than wait for it.
      for (const socket of connections(server)) if (socket !== callbackSocket) socket.destroy();
      server.unref();
    }
  }

  return { redirectUri, authorize, close: () => closeServer(server) };
}

/** The redirect URI of a loopback redirect on `port` (see {@link LoopbackAuthorizeOptions}). */
export function loopbackRedirectUri(port: number, path = DEFAULT_PATH): string {
  return `http://127.0.0.1:${port}${path}`;
}

/**
 * Only web URLs go to the browser: https, or http on this machine (core's one
 * loopback rule) — never `javascript:`, `file:` or a custom scheme (MCP
 * 2025-11-25 Security Best Practices).
 */
function assertBrowsable(url: URL): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))) return;
  throw new AuthError('insecure_endpoint', `refusing to open a ${url.protocol} authorization URL: https is required`);
}

/**
 * Why the wait ended: past `timeoutMs`, the platform's `TimeoutError` (as every
 * time bound reports), with a message naming the authorization server and the
 * option; otherwise the caller's abort reason as it is.
 */
function waitError(reason: unknown, url: URL, timeoutMs: number): Error {
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new DOMException(
      `no answer from the browser for the authorization at ${url.origin}: timed out after ${timeoutMs} ms (timeoutMs)`,
      'TimeoutError',
    );
  }
  return reason instanceof Error ? reason : new Error(String(reason));
}

/**
 * The system browser, spawned with the URL as one argument and no shell, so
 * characters like `&` in the query are never interpreted. Windows' `start` is a
 * `cmd` built-in (a shell), hence `rundll32 url.dll,FileProtocolHandler`.
 */
function openSystemBrowser(url: string): Promise<void> {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32.exe', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.once('error', (error) =>
      reject(new Error(`could not open a browser with ${command}: ${error.message}`, { cause: error })),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** The open connections of each listener, to cut them when an authorization settles or the listener closes. */
const openConnections = new WeakMap<Server, Set<Socket>>();

function connections(server: Server): Set<Socket> {
  return openConnections.get(server) ?? new Set();
}

/**
 * The listener on 127.0.0.1, bounded as the constants above say, unref'd: it
 * keeps the process alive only while an authorization waits. node:http is
 * loaded only here: a program that never authorizes should not pay for it.
 */
async function listen(port: number): Promise<Server> {
  const { createServer } = await import('node:http');
  const server = createServer({
    headersTimeout: LOOPBACK_HEADERS_TIMEOUT,
    requestTimeout: LOOPBACK_REQUEST_TIMEOUT,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL,
    maxHeaderSize: LOOPBACK_MAX_HEADER_BYTES,
  });
  // No 'timeout' listener: Node destroys a socket silent this long.
  server.setTimeout(LOOPBACK_IDLE_TIMEOUT);
  /** In the order they came: the first is the oldest. */
  const open = new Set<Socket>();
  openConnections.set(server, open);
  server.on('connection', (socket: Socket) => {
    const [oldest] = open;
    if (oldest && open.size >= LOOPBACK_MAX_CONNECTIONS) {
      open.delete(oldest);
      oldest.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      // Once listening, an error is a connection that could not be accepted (out of descriptors): not fatal.
      server.on('error', () => {});
      resolve();
    });
  });
  server.unref();
  return server;
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the loopback server has no TCP port');
  return address.port;
}

/** Stops listening and cuts every connection: nothing is waited for. */
function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of connections(server)) socket.destroy();
  return closed;
}

/** The wait for the browser: positive, and no longer than a timer holds (a longer one would fire at once). */
function waitBound(ms: number = DEFAULT_TIMEOUT_MS): number {
  if (!(ms > 0)) throw new RangeError(`loopbackAuthorize: timeoutMs must be a positive number of ms, not ${ms}`);
  return Math.min(ms, 2 ** 31 - 1);
}

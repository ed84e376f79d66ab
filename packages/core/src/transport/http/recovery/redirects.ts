import { HttpError } from '../../../errors/http-error.js';
import { LimitError } from '../../../errors/limit-error.js';
import { setAll } from '../../../util/headers.js';
import { discard } from '../../../util/read-body.js';
import type { StreamableHttpTransportOptions } from '../options.js';

/** A request as sent, with the headers object that later hops change. */
export interface SentRequest extends RequestInit {
  readonly method: string;
  readonly headers: Headers;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * Redirects followed for one request, fixed (not an option): one more fails it
 * with `LimitError('maxRedirects', 5)`, the last redirect's `HttpError` as cause.
 */
const MAX_REDIRECTS = 5;

/**
 * Follows the redirect `response` answered `target` with, and any after it, so
 * credentials, the custom `headers` and the session id never reach another
 * origin than the endpoint's (`origin`).
 * Resolves with the first response that is not a redirect to follow; rejects
 * with a LimitError past MAX_REDIRECTS hops. Loaded on demand: requests to an
 * endpoint that does not move never need it.
 */
export async function followRedirects(
  response: Response,
  target: URL,
  request: SentRequest,
  origin: string,
  options: StreamableHttpTransportOptions,
): Promise<Response> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  // The hops change their own copy: a retry of the request starts again from the headers it had.
  const headers = new Headers(request.headers);
  let init = { ...request, headers };
  for (let hop = 0; ; hop++) {
    if (response.type === 'opaqueredirect') {
      // Browsers hide the target of a manual redirect. Let the browser follow
      // it: the Fetch standard drops Authorization across origins, and what
      // else is ours to guard goes away here since the browser would keep it
      // (so in a browser even a same-origin redirect loses it).
      dropOriginBound(headers, options);
      return fetchFn(target, { ...init, redirect: 'follow' });
    }
    const next = REDIRECTS.has(response.status) ? locationOf(response, target) : undefined;
    // Not followed: the caller makes the 3xx an HttpError.
    if (!next) return response;
    await discard(response);
    if (hop >= MAX_REDIRECTS) {
      const cause = new HttpError(response.status, target.href);
      throw new LimitError('maxRedirects', MAX_REDIRECTS, `${target.href}: too many redirects`, { cause });
    }
    // 303 turns the request into a GET without a body.
    if (response.status === 303) init = { ...init, method: 'GET', body: null };
    if (next.origin !== origin) {
      dropOriginBound(headers, options);
    } else if (headers.has('dpop') && options.auth) {
      // A DPoP proof names its URL (htu): a same-origin hop needs a fresh one.
      setAll(headers, await options.auth.headers({ method: init.method, url: next }));
    }
    target = next;
    response = await fetchFn(target, init);
  }
}

/**
 * Where a redirect points, if it may be followed: only to http(s), as the
 * Fetch standard says ("HTTP-redirect fetch"), never to a `data:` URL a server
 * fills with whatever answer it likes, or to `file:`. Undefined without a
 * Location that parses.
 */
function locationOf(response: Response, target: URL): URL | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    const next = new URL(location, target);
    return next.protocol === 'https:' || next.protocol === 'http:' ? next : undefined;
  } catch {
    return undefined;
  }
}

/** Headers the transport sets itself on every request: not the caller's to guard. */
const OWN = new Set(['accept', 'content-type']);

/**
 * Removes what only the endpoint's origin may see: credentials, the custom
 * `headers` (API keys and tenant ids travel there), and the session id, which
 * is no credential but must not leak (2025-11-25 "Session Hijacking"). Headers
 * that mirror the body (Mcp-Method, Mcp-Param-*) stay: the body goes along.
 */
function dropOriginBound(headers: Headers, options: StreamableHttpTransportOptions): void {
  headers.delete('authorization');
  // A DPoP proof is bound to this origin's URL and to the token (RFC 9449 §4.2).
  headers.delete('dpop');
  headers.delete('mcp-session-id');
  if (options.authHeader) headers.delete(options.authHeader);
  for (const name of Object.keys(options.headers ?? {})) {
    if (!OWN.has(name.toLowerCase())) headers.delete(name);
  }
}

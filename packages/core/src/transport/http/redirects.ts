import { setAll } from './http-requester.js';
import type { StreamableHttpTransportOptions } from './options.js';
import { discard } from './read-body.js';

/** A request as sent, with the headers object that later hops change. */
export interface SentRequest extends RequestInit {
  readonly method: string;
  readonly headers: Headers;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Follows the redirect `response` answered `target` with, and any after it, so
 * credentials never reach another origin than the endpoint's (`origin`).
 * Resolves with the first response that is not a redirect to follow. Loaded on
 * demand: requests to an endpoint that does not move never need it.
 */
export async function followRedirects(
  response: Response,
  target: URL,
  request: SentRequest,
  origin: string,
  options: StreamableHttpTransportOptions,
): Promise<Response> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const { headers } = request;
  let init = request;
  for (let hop = 0; ; hop++) {
    if (response.type === 'opaqueredirect') {
      // Browsers hide the target of a manual redirect. Let the browser follow
      // it: the Fetch standard drops Authorization across origins, and our
      // custom auth header goes away here since the browser would keep it.
      dropCredentials(headers, options.authHeader);
      return fetchFn(target, { ...init, redirect: 'follow' });
    }
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null || hop >= MAX_REDIRECTS) return response;
    await discard(response);
    const next = new URL(location, target);
    // 303 turns the request into a GET without a body.
    if (response.status === 303) init = { ...init, method: 'GET', body: null };
    if (next.origin !== origin) {
      dropCredentials(headers, options.authHeader);
    } else if (headers.has('dpop') && options.auth) {
      // A DPoP proof names its URL (htu): a same-origin hop needs a fresh one.
      setAll(headers, await options.auth.headers({ method: init.method, url: next }));
    }
    target = next;
    response = await fetchFn(target, init);
  }
}

function dropCredentials(headers: Headers, authHeader: string | undefined): void {
  headers.delete('authorization');
  // A DPoP proof is bound to this origin's URL and to the token (RFC 9449 §4.2).
  headers.delete('dpop');
  if (authHeader) headers.delete(authHeader);
}

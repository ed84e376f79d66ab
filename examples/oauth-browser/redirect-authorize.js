import { assertBrowsable } from './browsable-url.js';

/**
 * The full-page redirect flow: the page itself goes to the authorization
 * server, which sends the browser back to `redirectUri` (a page of this app).
 * The provider saved the PKCE verifier, state and issuer in its store first,
 * so the store must outlive the page (LocalStorageOAuthStore).
 */

/**
 * A redirect handler (`OAuthOptions.authorize`) that leaves the page. The
 * promise never settles: the page is gone before it could.
 * @returns {(authorizationUrl: URL) => Promise<string>}
 */
export function redirectAuthorize() {
  return async (authorizationUrl) => {
    assertBrowsable(authorizationUrl);
    location.assign(authorizationUrl.href);
    return new Promise(() => {});
  };
}

/**
 * On the page the authorization server redirected to: completes the
 * authorization when this URL is an authorization response, then removes
 * `code`, `state` and `iss` from the address bar (and from history), so a
 * reload does not replay them. Resolves true when it completed one.
 * @param {{ finishAuthorization(url: string): Promise<void> }} provider
 */
export async function finishRedirect(provider) {
  const url = new URL(location.href);
  const isResponse = url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));
  if (!isResponse) return false;
  history.replaceState(null, '', url.pathname);
  await provider.finishAuthorization(url.href);
  return true;
}

import type { AuthorizeHandler } from '../auth/options.js';
import { assertBrowsable } from './browsable-url.js';

/**
 * An `authorize` handler for the full-page flow: the page itself goes to the
 * authorization server, which sends the browser back to the app's
 * `redirectUri`. The provider saved the PKCE verifier, state and issuer in its
 * store before, so the store must outlive the page (e.g. `LocalStorageOAuthStore`).
 * The promise never settles: the page is gone before it could.
 */
export function redirectAuthorize(): AuthorizeHandler {
  return (authorizationUrl) => {
    assertBrowsable(authorizationUrl);
    location.assign(authorizationUrl.href);
    return new Promise<string>(() => {});
  };
}

/**
 * On the page the authorization server redirected to: completes the
 * authorization when this URL is an authorization response, then removes
 * `code`, `state` and `iss` from the address bar and history, so a reload does
 * not replay them. Resolves true when it completed one.
 */
export async function finishRedirect(provider: { finishAuthorization(url: string): Promise<void> }): Promise<boolean> {
  const url = new URL(location.href);
  const isResponse = url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));
  if (!isResponse) return false;
  history.replaceState(null, '', url.pathname);
  await provider.finishAuthorization(url.href);
  return true;
}

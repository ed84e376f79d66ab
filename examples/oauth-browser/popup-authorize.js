import { assertBrowsable } from './browsable-url.js';

/** The `type` of the message callback.html posts to its opener. */
export const CALLBACK_MESSAGE = 'mcp-oauth-callback';

/**
 * A redirect handler (`OAuthOptions.authorize`) that shows the authorization
 * server in a popup. The server redirects the popup to callback.html on this
 * origin, which posts its own URL back here and closes; that URL is the
 * authorization response the provider checks (state, iss) and redeems.
 *
 * Call `connect()` (or the request that triggers authorization) from a click
 * handler: browsers block popups opened without a user gesture.
 *
 * @param {{ timeoutMs?: number, features?: string }} [options]
 * @returns {(authorizationUrl: URL) => Promise<string>}
 */
export function popupAuthorize({ timeoutMs = 300_000, features = 'popup,width=520,height=680' } = {}) {
  return (authorizationUrl) =>
    new Promise((resolve, reject) => {
      assertBrowsable(authorizationUrl);
      const popup = window.open(authorizationUrl.href, 'mcp-oauth', features);
      if (popup === null) {
        reject(new Error('the authorization popup was blocked; start sign-in from a click'));
        return;
      }
      const finish = () => {
        window.removeEventListener('message', onMessage);
        clearInterval(watch);
        clearTimeout(timer);
      };
      /** @param {MessageEvent} event */
      const onMessage = (event) => {
        // Only our own callback page, in the popup we opened, may answer.
        if (event.origin !== location.origin || event.source !== popup) return;
        if (event.data?.type !== CALLBACK_MESSAGE || typeof event.data.url !== 'string') return;
        finish();
        resolve(event.data.url);
      };
      const watch = setInterval(() => {
        if (!popup.closed) return;
        finish();
        reject(new Error('the authorization window was closed before it finished'));
      }, 250);
      const timer = setTimeout(() => {
        finish();
        popup.close();
        reject(new Error('the authorization timed out'));
      }, timeoutMs);
      window.addEventListener('message', onMessage);
    });
}

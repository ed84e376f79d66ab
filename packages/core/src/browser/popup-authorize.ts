import type { AuthorizeHandler } from '../auth/options.js';
import { AuthError } from '../errors/auth-error.js';
import { timerDelay } from '../util/timers.js';
import { CALLBACK_MESSAGE, publishAuthorizationResponse } from './authorization-handoff.js';
import { assertBrowsable } from './browsable-url.js';

/** How long the user has to finish in the popup unless told otherwise, in ms. */
const DEFAULT_POPUP_TIMEOUT = 300_000;

/** Options of {@link popupAuthorize}. */
export interface PopupOptions {
  /** How long the user has to finish, in ms (default 5 minutes; longer than a timer can wait, the longest it can). */
  readonly timeoutMs?: number;
  /** `window.open` features (default a 520×680 popup). */
  readonly features?: string;
}

/**
 * An `authorize` handler that shows the authorization server in a popup. The
 * server redirects the popup to the app's callback page (same origin), which
 * calls `postAuthorizationResponse()`; its URL is the response the provider
 * checks (state, iss) and redeems. Start the flow from a click: browsers block
 * popups opened without a user gesture.
 */
export function popupAuthorize({
  timeoutMs = DEFAULT_POPUP_TIMEOUT,
  features = 'popup,width=520,height=680',
}: PopupOptions = {}): AuthorizeHandler {
  return (authorizationUrl) =>
    new Promise<string>((resolve, reject) => {
      assertBrowsable(authorizationUrl);
      const popup = window.open(authorizationUrl.href, 'mcp-oauth', features);
      if (popup === null) {
        reject(new AuthError('popup_blocked', 'the authorization popup was blocked; start sign-in from a click'));
        return;
      }
      const finish = () => {
        window.removeEventListener('message', onMessage);
        clearInterval(watch);
        clearTimeout(timer);
      };
      const onMessage = (event: MessageEvent) => {
        // Only our own callback page, in the popup we opened, may answer.
        if (event.origin !== location.origin || event.source !== popup) return;
        const data = event.data as { type?: unknown; url?: unknown } | null;
        if (data?.type !== CALLBACK_MESSAGE || typeof data.url !== 'string') return;
        finish();
        resolve(data.url);
      };
      const watch = setInterval(() => {
        if (!popup.closed) return;
        finish();
        reject(new AuthError('authorization_abandoned', 'the authorization window was closed before it finished'));
      }, 250);
      const timer = setTimeout(
        () => {
          finish();
          popup.close();
          reject(new AuthError('authorization_abandoned', 'the authorization timed out'));
        },
        timerDelay(timeoutMs, { fallback: DEFAULT_POPUP_TIMEOUT }),
      );
      window.addEventListener('message', onMessage);
    });
}

/**
 * For the callback page the popup lands on: hands its URL (the authorization
 * response) to the window that opened it, on this origin only, and closes.
 * Returns false when the page was not opened as a popup. Then the user most
 * likely followed the authorization URL as a link in a tab of its own (the
 * popup was blocked): the URL is published on `CALLBACK_CHANNEL` to the app's
 * tabs of this origin (see `listenForAuthorizationResponses`), and the page
 * stays open to tell the user to go back.
 */
export function postAuthorizationResponse(): boolean {
  const opener = window.opener as Window | null;
  if (!opener) {
    publishAuthorizationResponse(location.href);
    return false;
  }
  opener.postMessage({ type: CALLBACK_MESSAGE, url: location.href }, location.origin);
  window.close();
  return true;
}

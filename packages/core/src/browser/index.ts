/**
 * @mcp/core/browser: redirect handlers for OAuth in a web page — a popup, or a
 * full-page redirect — the callback helpers that complete them (a popup's
 * callback, or one the user reached by a plain link in another tab), the store
 * over Web Storage (Web Locks across tabs) that outlives the page, and a lock
 * that keeps tabs from running two sign-ins for one server.
 *
 * @module @mcp/core/browser
 */
export {
  CALLBACK_CHANNEL,
  CALLBACK_MESSAGE,
  listenForAuthorizationResponses,
  MAX_CALLBACK_URL_LENGTH,
} from './authorization-handoff.js';
export { assertBrowsable } from './browsable-url.js';
export { LocalStorageOAuthStore, type LocalStorageOAuthStoreOptions } from './local-storage-oauth-store.js';
export { LocalStorageStore, type LocalStorageStoreOptions } from './local-storage-store.js';
export { type PopupOptions, popupAuthorize, postAuthorizationResponse } from './popup-authorize.js';
export { finishRedirect, redirectAuthorize } from './redirect-authorize.js';
export { WebFlowLock, type WebFlowLockOptions } from './web-flow-lock.js';

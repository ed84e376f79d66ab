/**
 * @mcp/core/browser: redirect handlers for OAuth in a web page — a popup, or a
 * full-page redirect — and the callback helpers that complete them.
 *
 * @module @mcp/core/browser
 */
export { assertBrowsable } from './browsable-url.js';
export { CALLBACK_MESSAGE, type PopupOptions, popupAuthorize, postAuthorizationResponse } from './popup-authorize.js';
export { finishRedirect, redirectAuthorize } from './redirect-authorize.js';

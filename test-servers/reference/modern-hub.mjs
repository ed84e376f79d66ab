import { createConnectionState } from './connection-state.mjs';
import { DEFAULT_PAGE_SIZE } from './pagination.mjs';
import { createStateSealer } from './request-state.mjs';
import { modernTools } from './tools-modern.mjs';

/**
 * Where the change notifications of a hub go when its servers are per request
 * (HTTP): the `createMcpHandler` event bus, which feeds every open
 * `subscriptions/listen` stream. The SDK's own `ServerNotifier` has this shape.
 * @typedef {object} HubNotifier
 * @property {() => void} toolsChanged
 * @property {(uri: string) => void} resourceUpdated
 */

/**
 * What every 2026-07-28 request served by one v2 reference "server" shares.
 * 2026-07-28 has no connection (basic/lifecycle): the tool list, the request
 * counts and the requestState key belong to the server, not to a request, so
 * one hub backs the stdio process, or every modern request to one `/v2` URL
 * (query string included) although the SDK builds a fresh `Server` for each.
 * @typedef {object} ModernHub
 * @property {import('./connection-state.mjs').ConnectionState} state tools (the modern ones included, plus add-tool's)
 * @property {(method: string) => void} count records one received message
 * @property {() => Record<string, number>} counts how many messages of each method were received
 * @property {import('./request-state.mjs').StateSealer} states seals the multi-round-trip tools' requestState
 * @property {HubNotifier} [notifier] present on HTTP; on stdio the SDK routes the server's own notifications
 */

/**
 * @param {import('./v1-server.mjs').ReferenceServerOptions} [options]
 * @param {HubNotifier} [notifier]
 * @returns {ModernHub}
 */
export function createModernHub({ profile = 'full', pageSize = DEFAULT_PAGE_SIZE } = {}, notifier) {
  const state = createConnectionState(profile, pageSize);
  if (profile === 'full') for (const tool of modernTools) state.tools.set(tool.name, tool);
  /** @type {Map<string, number>} */
  const received = new Map();
  const hub = {
    state,
    count: (/** @type {string} */ method) => received.set(method, (received.get(method) ?? 0) + 1),
    counts: () => Object.fromEntries([...received].sort(([a], [b]) => a.localeCompare(b))),
    states: createStateSealer(),
    ...(notifier && { notifier }),
  };
  return hub;
}

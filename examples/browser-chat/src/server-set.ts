import { LocalStorageStore, listenForAuthorizationResponses, popupAuthorize, WebFlowLock } from '@mcp/core/browser';
import { ConnectionError, type ConnectionEvent, Servers } from '@mcp/core/connections';

/** What the panel lists under the servers: what the set worked around, in words. */
export type Notice = (message: string) => void;

/**
 * The user's MCP servers: one set, its configs and OAuth tokens kept in
 * `localStorage`, shared by every tab, and each server's session in the tab's
 * own `sessionStorage`, so a reload comes back with the same servers and
 * resumes their sessions without a handshake. Two tabs never share a session:
 * each gets the server's notifications on a stream of its own, and Remove in
 * one tab ends only that tab's session (the other tab keeps the server until it
 * reloads, since the shared list no longer has it). Every server may ask the user to sign in
 * (`oauth: true` in `addServer`): the set then waits in `authorizing` until the
 * user clicks Sign in, whose click opens the popup. Two tabs never both run a
 * sign-in for one server (Web Locks). When the popup is blocked and the user
 * follows the link instead, the callback page hands its URL back over the
 * origin's BroadcastChannel, and the server waiting for it completes. A ping
 * every 30 s finds a dropped network before the next call does. Elicitation
 * and sampling requests wait in each server's `snapshot.pending` for the page.
 */
export async function openServers(notice: Notice): Promise<Servers> {
  const servers = await Servers.open({
    store: new LocalStorageStore(),
    // Per tab, and never locked across tabs: nothing else reads this tab's sessions.
    sessionStore: new LocalStorageStore({ storage: sessionStorage, locks: false }),
    connection: {
      client: { clientInfo: { name: 'mcp-browser-chat', version: '0.2.0' } },
      oauth: {
        redirectUri: new URL('callback.html', location.href).href,
        authorize: popupAuthorize(),
        clientMetadata: { client_name: 'MCP browser chat' },
      },
      authorization: { lock: new WebFlowLock() },
      healthCheck: {},
    },
    // A stored config or session another script damaged is skipped or replaced; the user is told.
    onError: (error) => notice(error.message),
    onEvent: (event: ConnectionEvent, name) => {
      if (event.type === 'warning') notice(`${name}: ${event.error.message}`);
    },
  });
  // Each connection takes only the callback of its own flow (its `state`): every one may be offered every URL.
  listenForAuthorizationResponses((url) => {
    for (const connection of servers.list()) connection.completeAuthorization(url);
  });
  return servers;
}

/**
 * The app's own rule for a URL the user typed, on top of the set's (which
 * takes only http: and https:): plain http only to this machine, since
 * headers and tokens would cross the network readable by anyone on the path.
 * Throws a `ConnectionError` (`invalid_config`), as the set does.
 */
export function checkTypedUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return; // not a URL at all: the set says so
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new ConnectionError(
      'invalid_config',
      `${url.host} is not this machine: use https (plain http is for servers on localhost only)`,
    );
  }
}

/** `localhost`, 127.0.0.0/8 and [::1], as the URL parser writes them. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

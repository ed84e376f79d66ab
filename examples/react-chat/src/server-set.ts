import { LocalStorageStore, listenForAuthorizationResponses, popupAuthorize, WebFlowLock } from '@mcp/core/browser';
import { ConnectionError, Servers } from '@mcp/core/connections';

/**
 * The user's MCP servers: one set, kept in `localStorage` (configs, sessions,
 * OAuth tokens), so a reload comes back with the same servers and resumes
 * their sessions without a handshake. Every server may ask the user to sign in
 * (`oauth: true` when added): it then waits in `authorizing` until the user
 * clicks Sign in, whose click opens the popup. Two tabs never run one server's
 * sign-in at once (Web Locks). When the popup is blocked and the user follows
 * the link instead, the callback page hands its URL back over the origin's
 * BroadcastChannel, and the server waiting for it completes. Elicitation and
 * sampling requests wait in each server's `pending` for the page to answer.
 *
 * `notice` hears what the set worked around: a stored config another script
 * damaged (skipped), a stored session it could not use (replaced).
 */
export async function openServers(notice: (message: string) => void): Promise<Servers> {
  const servers = await Servers.open({
    store: new LocalStorageStore(),
    connection: {
      client: { clientInfo: { name: 'mcp-react-chat', version: '0.1.0' } },
      oauth: {
        redirectUri: new URL('callback.html', location.href).href,
        authorize: popupAuthorize(),
        clientMetadata: { client_name: 'MCP React chat' },
      },
      authorization: { lock: new WebFlowLock() },
    },
    onError: (error) => notice(error.message),
    onEvent: (event, name) => {
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

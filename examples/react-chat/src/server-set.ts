import { listenForAuthorizationResponses, popupAuthorize, WebFlowLock } from '@mcp/core/browser';
import { ConnectionError, type ServersOptions } from '@mcp/core/connections';
import { appsCapability } from '@mcp/core/protocol';
import { useMcpServers } from '@mcp/react';
import { useEffect } from 'react';
import { notice } from './notices.js';

/**
 * How the provider's set connects (it keeps everything in `localStorage`,
 * see `App`): every server may ask the user to sign in (`oauth: true` when
 * added), and then waits in `authorizing` until the user clicks Sign in,
 * whose click opens the popup on `callback.html`. Two tabs never run one
 * server's sign-in at once (Web Locks). Elicitation and sampling requests
 * wait in each server's `pending` for the page to answer. What the set works
 * around (a stored config another script damaged, a stored session it could
 * not use) becomes a notice in the panel. Each client declares MCP Apps. Called on the client only, when the
 * provider makes the set: it reads `location`.
 */
export function serverSetOptions(): Omit<ServersOptions, 'store'> {
  return {
    connection: {
      // The chat shows MCP Apps views: servers offer their UI tools to it, not a text-only fallback.
      client: {
        clientInfo: { name: 'mcp-react-chat', version: '0.1.0' },
        capabilities: { extensions: appsCapability() },
      },
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
  };
}

/**
 * Finishes a sign-in the user completed through the plain link (the popup was
 * blocked): the callback page, in a tab with no opener, publishes its URL to
 * the origin's tabs, and every server waiting for a sign-in is offered it.
 * Only the flow whose `state` the URL carries completes.
 */
export function useSignInHandOff(): void {
  const { completeAuthorization } = useMcpServers();
  useEffect(() => listenForAuthorizationResponses(completeAuthorization), [completeAuthorization]);
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

import { Client, type ClientOptions, OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { popupAuthorize } from '@mcp/core/browser';

/**
 * Connects to an MCP server over Streamable HTTP. When the server answers 401,
 * the OAuth provider discovers its authorization server, registers this app
 * and opens the sign-in page in a popup, which lands on `callback.html`; the
 * tokens stay in memory (a reload signs in again). Call it from a click:
 * browsers block popups opened without one.
 */
export async function connect(url: string, handlers: Pick<ClientOptions, 'elicitation' | 'sampling'>): Promise<Client> {
  const auth = new OAuthProvider({
    redirectUri: new URL('callback.html', location.href).href,
    authorize: popupAuthorize(),
    clientMetadata: { client_name: 'MCP browser chat' },
  });
  const client = new Client(new StreamableHttpTransport(url, { auth }), {
    clientInfo: { name: 'mcp-browser-chat', version: '0.1.0' },
    ...handlers,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

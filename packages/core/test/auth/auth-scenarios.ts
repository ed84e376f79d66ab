/**
 * The scriptable OAuth test servers (test-servers/auth) for the tests here:
 * started once per file, each scenario an authorization server and a protected
 * MCP server of its own; a user who approves at once; clients closed after each test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../../test-servers/auth/serve.mjs';
import { Client, OAuthProvider, type OAuthStore, StreamableHttpTransport } from '../../src/index.js';

export const REDIRECT_URI = 'http://localhost:3000/callback';

export interface AuthTestBed {
  /** The running servers (create scenarios with them). */
  servers(): AuthServers;
  /** A Client connected to `url` with `auth`, closed after the test. */
  connect(url: string, auth: OAuthProvider): Promise<Client>;
}

/** Starts the servers for this file and closes what each test connected. */
export function useAuthServers(): AuthTestBed {
  let servers: AuthServers | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    servers = await startAuthServers();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => servers?.close());
  return {
    servers() {
      if (!servers) throw new Error('the auth servers are not started');
      return servers;
    },
    async connect(url, auth) {
      const client = new Client(new StreamableHttpTransport(url, { auth }), { requestTimeout: 10_000 });
      clients.push(client);
      await client.connect();
      return client;
    },
  };
}

/** The user approving at once: follows the authorization URL and returns the callback it redirects to. */
export async function approve(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location') ?? '', url);
}

/** A provider on `store` whose user approves at once, counting the times it was asked. */
export function approvingProvider(store: OAuthStore): { auth: OAuthProvider; authorizations: () => number } {
  let count = 0;
  const auth = new OAuthProvider({
    store,
    redirectUri: REDIRECT_URI,
    authorize: (url) => {
      count++;
      return approve(url);
    },
  });
  return { auth, authorizations: () => count };
}

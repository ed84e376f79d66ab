import { describe, expect, it } from 'vitest';
import type { RecordedAuthRequest } from '../../../../test-servers/auth/serve.mjs';
import { LATEST_PROTOCOL_VERSION, OAuthProvider } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

/**
 * 2025-03-26 "Server Metadata Discovery Headers": the client SHOULD send
 * `MCP-Protocol-Version` while it discovers metadata, so the MCP server can
 * answer by protocol version. It goes to the MCP server's own origin (PRM, and
 * AS metadata where the AS is the MCP server, as in 2025-03-26), never to an
 * authorization server elsewhere.
 */
const bed = useAuthServers();

const wellKnown = (requests: readonly RecordedAuthRequest[]) =>
  requests.filter((request) => request.httpMethod === 'GET' && request.path.startsWith('/.well-known/'));

describe('metadata discovery headers', () => {
  it('sends MCP-Protocol-Version on every metadata request of a 2025-03-26 server (AS metadata at the MCP origin)', async () => {
    const scenario = await bed.servers().createScenario({ legacy: 'metadata' });
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: REDIRECT_URI, authorize: approve }),
    );
    await client.listTools();
    const discovery = wellKnown(scenario.stats().requests);
    expect(discovery.map((request) => request.path)).toContain('/.well-known/oauth-authorization-server');
    for (const request of discovery) expect(request.headers['mcp-protocol-version']).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('sends it on the PRM requests to the MCP server, not on the metadata requests to an AS on another origin', async () => {
    const scenario = await bed.servers().createScenario();
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: REDIRECT_URI, authorize: approve }),
    );
    await client.listTools();
    const discovery = wellKnown(scenario.stats().requests);
    const prm = discovery.filter((request) => request.server === 'mcp');
    const asMetadata = discovery.filter((request) => request.server === 'as');
    expect(prm.length).toBeGreaterThan(0);
    expect(asMetadata.length).toBeGreaterThan(0);
    for (const request of prm) expect(request.headers['mcp-protocol-version']).toBe(LATEST_PROTOCOL_VERSION);
    for (const request of asMetadata) expect(request.headers['mcp-protocol-version']).toBeUndefined();
  });

  it('asks again without it when the request carrying it fails on the network, as a browser refuses a CORS preflight', async () => {
    const scenario = await bed.servers().createScenario();
    const refused: string[] = [];
    // A browser whose preflight the server does not answer: any request carrying the header fails as a network error.
    const browserLike: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.headers.has('mcp-protocol-version')) {
        refused.push(new URL(request.url).pathname);
        throw new TypeError('Failed to fetch');
      }
      return fetch(request);
    };
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: REDIRECT_URI, authorize: approve, fetch: browserLike }),
    );
    await client.listTools();
    const prmPath = `/.well-known/oauth-protected-resource${new URL(scenario.info().mcp).pathname}`;
    expect(refused).toContain(prmPath);
    // PRM was found on the plain GET (no 2025-03-26 fallback): the token came from the AS it names.
    const served = wellKnown(scenario.stats().requests).filter((request) => request.path === prmPath);
    expect(served.map((request) => request.headers['mcp-protocol-version'])).toEqual([undefined]);
    expect(
      scenario.stats().requests.some((request) => request.server === 'as' && request.path.endsWith('/token')),
    ).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { HttpError, LimitError, McpError } from '../../src/index.js';
import { expectHealthy, rejection, timed } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Redirects: the call is answered with 307 to another origin, or to itself
// forever. Nothing that identifies or authorizes the client may reach
// another origin: no token, no custom header, no session id.

const server = useHostileServer();
const open = useHostileClients(server);

const SECRET_HEADERS = { 'x-api-key': 'secret-key', 'x-tenant': 'tenant-7' };

describe.each(['legacy', 'modern'] as const)('redirects (%s era)', (era) => {
  it('a 307 to another origin carries no token, custom header or session id there; the next call works', async () => {
    const { client, endpoint } = await open('redirect-other-origin', {
      era,
      transport: { headers: SECRET_HEADERS, tokenProvider: () => 'bearer-secret' },
    });
    let followed = false;
    try {
      const result = await client.callTool('hostile');
      expect(result.text).toBe('answered by another origin');
      followed = true;
    } catch (error) {
      // Refusing to follow is as good as following without credentials, if the error is typed.
      expect(error).toBeInstanceOf(McpError);
    }
    expect(endpoint.stats.otherOrigin).toHaveLength(followed ? 1 : 0);
    for (const { headers } of endpoint.stats.otherOrigin) {
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers['x-tenant']).toBeUndefined();
      expect(headers['mcp-session-id']).toBeUndefined();
    }
    // The same-origin requests kept them.
    expect(endpoint.stats.requests.length).toBeGreaterThan(0);
    await expectHealthy(client);
  });

  it('a 307 to itself, forever, stops after 5 hops with LimitError maxRedirects, the last 307 as its cause', async () => {
    const { client, endpoint } = await open('redirect-loop', { era });
    const before = endpoint.stats.requests.length;
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxRedirects', value: 5 });
    const cause = (error as LimitError).cause;
    expect(cause).toBeInstanceOf(HttpError);
    expect((cause as HttpError).status).toBe(307);
    expect(ms).toBeLessThan(5000);
    // The request and five redirects followed.
    expect(endpoint.stats.requests.length - before).toBe(6);
    await expectHealthy(client);
  });
});

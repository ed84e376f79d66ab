import { describe, expect, it } from 'vitest';
import { ClientClosedError, ProtocolError } from '../../src/index.js';
import { rejection, timed, until } from './checks.js';
import { expectSizeLimitError, useHostileClients, useHostileServer } from './hostile-harness.js';

// The 2024-11-05 HTTP+SSE transport, reached by the legacy fallback when a
// server refuses every POST: one session stream carries every answer, and its
// `endpoint` event says where the client POSTs (with its credentials).

const server = useHostileServer();
const open = useHostileClients(server);

describe('http+sse (2024-11-05, legacy fallback)', () => {
  it('a healthy HTTP+SSE server is reached by the fallback and answers calls', async () => {
    const { endpoint } = await open('healthy', { era: 'sse' });
    expect(endpoint.stats.requests.some((request) => request.httpMethod === 'GET')).toBe(true);
  });

  it.each([
    ['sse-endpoint-elsewhere', 'another origin'],
    ['sse-endpoint-javascript', 'a javascript: URL'],
  ])('%s: an endpoint event naming %s fails connect() with ProtocolError; nothing is sent there', async (fault) => {
    const { client, endpoint } = await open(fault, {
      era: 'sse',
      connect: false,
      transport: { headers: { 'x-api-key': 'secret-key' } },
    });
    const error = await rejection(client.connect());
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/not on the origin/);
    expect(endpoint.stats.otherOrigin).toEqual([]);
  });

  it('a session stream that never names its endpoint fails connect() at its timeout (500 ms here)', async () => {
    const { client } = await open('sse-no-endpoint', { era: 'sse', connect: false });
    const { value: error, ms } = await timed(() => rejection(client.connect({ timeout: 500 })));
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(ms).toBeLessThan(3000);
  });

  it('a line on the session stream that never ends fails the call with a maxMessageBytes error in < 5 s and ends the session (later calls: ClientClosedError)', async () => {
    const { client, endpoint } = await open('sse-endless-line', { era: 'sse' });
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expectSizeLimitError(error);
    expect(ms).toBeLessThan(5000);
    await until(() => endpoint.stats.clientGone >= 1, 2000, 'the client leaves the endless stream');
    expect(endpoint.stats.bytesWritten).toBeLessThan(32 * 1024 * 1024);
    // The one stream that carried every answer is gone, and the session with it: later calls fail at once, saying why.
    const later = await rejection(client.callTool('echo', { text: 'x' }));
    expect(later).toBeInstanceOf(ClientClosedError);
    expect((later as Error).message).toMatch(/maxMessageBytes/);
  });
});

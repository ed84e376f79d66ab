import { describe, expect, it } from 'vitest';
import { ClientClosedError } from '../../src/index.js';
import { expectHealthy, rejection, timed, until } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Stalls: the server stops talking at the worst moment and keeps the
// connection open. The call's timeout ends it, the connection is let go
// (the server sees the client leave), and the client carries on.

const server = useHostileServer();
const open = useHostileClients(server);

const STALLS = [
  ['stall-before-headers', 'a server that never answers'],
  ['stall-mid-body', 'a JSON body that stops halfway'],
  ['stall-mid-sse', 'an SSE stream that stops mid-event'],
] as const;

describe.each(['legacy', 'modern'] as const)('stalls (%s era)', (era) => {
  it.each(STALLS)(
    '%s: %s fails with a TimeoutError at the call timeout, the connection is released, the next call works',
    async (fault) => {
      const { client, endpoint } = await open(fault, { era });
      const { value: error, ms } = await timed(() => rejection(client.callTool('hostile', {}, { timeout: 300 })));
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe('TimeoutError');
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(2000);
      await until(() => endpoint.stats.clientGone === 1, 2000, 'the client closes the stalled response');
      await expectHealthy(client);
    },
  );
});

describe.each(['legacy', 'modern'] as const)('stalls (%s era, past the client-wide maxTotalTimeout)', (era) => {
  it.each([
    ['no timeout of its own (0)', 0],
    ['a timeout longer than the cap (5 s)', 5000],
  ])(
    'stall-before-headers: a call with %s fails with a TimeoutError at maxTotalTimeout (0.3 s here), the next call works',
    async (_, timeout) => {
      const { client, endpoint } = await open('stall-before-headers', { era, client: { maxTotalTimeout: 300 } });
      const { value: error, ms } = await timed(() => rejection(client.callTool('hostile', {}, { timeout })));
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe('TimeoutError');
      expect((error as DOMException).message).toMatch(/total timeout of 300 ms/);
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(2000);
      await until(() => endpoint.stats.clientGone === 1, 2000, 'the client closes the stalled response');
      await expectHealthy(client);
    },
  );
});

describe('stalls (legacy era, a handshake that never completes)', () => {
  it('stall-initialized: notifications/initialized never acknowledged, close() during connect() fails it at once with ClientClosedError and lets the POST go', async () => {
    const { client, endpoint } = await open('stall-initialized', { era: 'legacy', connect: false });
    const connecting = rejection(client.connect());
    await until(() => endpoint.stats.requests.length >= 2, 2000, 'the notification is sent');
    const { value: error, ms } = await timed(async () => {
      await client.close();
      return connecting;
    });
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(ms).toBeLessThan(1000);
    await until(() => endpoint.stats.clientGone === 1, 2000, 'the client closes the held notification POST');
  });

  it('stall-initialized: notifications/initialized never acknowledged fails connect() with a TimeoutError at its timeout, and the POST is let go', async () => {
    const { client, endpoint } = await open('stall-initialized', { era: 'legacy', connect: false });
    const { value: error, ms } = await timed(() => rejection(client.connect({ timeout: 300 })));
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(ms).toBeLessThan(2000);
    await until(() => endpoint.stats.clientGone === 1, 2000, 'the client closes the held notification POST');
  });

  it('stall-initialized: notifications/initialized never acknowledged, with no timeout on connect(), fails it at requestTimeout', async () => {
    const { client } = await open('stall-initialized', {
      era: 'legacy',
      connect: false,
      client: { requestTimeout: 300 },
    });
    const { value: error, ms } = await timed(() => rejection(client.connect()));
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(ms).toBeLessThan(2000);
  });
});

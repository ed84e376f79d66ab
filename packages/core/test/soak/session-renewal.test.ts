import { describe, expect, it } from 'vitest';
import { until, useClients, useHttpServers } from '../http/harness.js';

const servers = useHttpServers();
const open = useClients();

describe('a call made while an expired session is being renewed (found by the soak)', () => {
  // BUG, reported: on a 404 the transport forgets the session at once, and a call
  // started before the new `initialize` is answered goes out with no
  // Mcp-Session-Id. A stateful server must refuse it (2025-11-25, Session
  // Management: every request after the handshake carries the id), so the call
  // fails with HttpError 400 where it would have succeeded a moment later. The
  // soak sees a handful per thousand calls. Turn `it.fails` into `it` once calls
  // made during a renewal wait for it.
  it.fails('waits for the new session instead of going out without one', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        { match: { method: 'tools/call', tool: 'echo', times: 1 }, action: { type: 'expire-session' } },
        // The renewal's handshake takes a moment, as it may on a real network.
        { match: { method: 'initialize', nth: 2 }, action: { type: 'stall', ms: 300 } },
      ],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const expired = client.callTool('echo', { text: 'expired' });
    await until(async () => (await scenario.stats()).rules[1]?.applied === 1);
    const during = client.callTool('add', { a: 1, b: 2 });
    const [first, second] = await Promise.allSettled([expired, during]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { text: 'expired' } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { structuredContent: { sum: 3 } } });

    const sessionless = (await scenario.stats()).requests.filter(
      (request) => request.method === 'tools/call' && request.headers['mcp-session-id'] === undefined,
    );
    expect(sessionless).toEqual([]);
  });

  // BUG, reported, same root: when the renewal's `initialize` fails (here a reset;
  // in the soak also 503 storms), the transport is left with no session and no
  // renewal pending, and every later call goes out without Mcp-Session-Id and
  // fails with HttpError 400 forever: the client never recovers. The soak's
  // long runs show hundreds of such calls. Turn `it.fails` into `it` once a
  // later call renews the session again.
  it.fails('a failed renewal does not leave every later call without a session', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        { match: { method: 'tools/call', times: 1 }, action: { type: 'expire-session' } },
        { match: { method: 'initialize', nth: 2 }, action: { type: 'reset-before' } },
      ],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    await expect(client.callTool('echo', { text: 'expired' })).rejects.toThrow();
    expect((await client.callTool('echo', { text: 'later' })).text).toBe('later');
    expect((await client.callTool('echo', { text: 'and later' })).text).toBe('and later');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { Connection, type ConnectionEvent } from '../../src/connections/index.js';
import { approve, REDIRECT_URI, useAuthServers } from '../auth/auth-scenarios.js';
import { causes, failLoadsOf } from '../transport/http/fail-loads.js';
import { states, useCleanup } from './servers.js';

// A file of its own: once the connection's OAuth has loaded, every later import gets it from the cache, so its
// loads can only be failed before anything loads it.

const bed = useAuthServers();
const cleanup = useCleanup();

describe("a connection's OAuth, loaded on demand", () => {
  it('an attempt whose OAuth cannot load fails with the load failure, and reconnect() loads it and signs in', async () => {
    const scenario = await bed.servers().createScenario();
    const events: ConnectionEvent[] = [];
    let asked = 0;
    const connection = new Connection(
      { name: 'protected', url: scenario.info().mcp, oauth: true },
      {
        onEvent: (event) => events.push(event),
        oauth: {
          redirectUri: REDIRECT_URI,
          authorize: (url) => {
            asked++;
            return approve(url);
          },
        },
      },
    );
    cleanup(() => connection.close());
    const load = failLoadsOf('connections/connection-oauth.js');
    const refused = await connection.connect().catch((caught: unknown) => caught);
    load.restore();
    expect(causes(refused)).toContain(load.failure);
    expect(connection.getSnapshot().state).toMatchObject({ status: 'failed', error: refused });
    // Nothing went to the server without its authorization, and the user was never asked.
    expect(asked).toBe(0);
    // authorize() from a click with nothing waiting does nothing.
    await connection.authorize();

    const ready = connection.reconnect();
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('authorizing'));
    await connection.authorize();
    await ready;
    expect(asked).toBe(1);
    expect(states(events)).toEqual(['connecting#0', 'failed', 'connecting#0', 'authorizing', 'connecting#0', 'ready']);
    expect((await connection.callTool('echo', { text: 'signed in' })).content).toEqual([
      { type: 'text', text: 'signed in' },
    ]);
    await scenario.close();
  });
});

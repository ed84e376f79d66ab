import { describe, expect, it, vi } from 'vitest';
import { Connection, type ConnectionEvent, MemoryStore } from '../../src/connections/index.js';
import { approve, REDIRECT_URI, useAuthServers } from '../auth/auth-scenarios.js';
import { states, useCleanup } from './servers.js';

const bed = useAuthServers();

const cleanup = useCleanup();

/** A connection to an OAuth-protected server whose app signs in with `approve` (a user who approves at once). */
async function openProtected(
  options: { store?: MemoryStore; connectTimeout?: number } = {},
  config: Parameters<ReturnType<typeof bed.servers>['createScenario']>[0] = {},
) {
  const scenario = await bed.servers().createScenario(config);
  const events: ConnectionEvent[] = [];
  const opens: URL[] = [];
  const connection = new Connection(
    { name: 'protected', url: scenario.info().mcp, oauth: true },
    {
      ...options,
      onEvent: (event) => events.push(event),
      oauth: {
        redirectUri: REDIRECT_URI,
        authorize: (url) => {
          opens.push(url);
          return approve(url);
        },
      },
    },
  );
  cleanup(() => connection.close());
  return { connection, events, opens, scenario };
}

describe('Connection authorization', () => {
  it('waits in authorizing with the URL, opening nothing until authorize(), which runs the handler at once', async () => {
    const { connection, events, opens } = await openProtected({ connectTimeout: 1000 });
    const connecting = connection.connect();
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('authorizing'));
    const state = connection.getSnapshot().state;
    expect(state).toMatchObject({ status: 'authorizing', authorizationUrl: expect.any(URL) });
    // Longer than connectTimeout: the clock stops while the user signs in.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(opens).toEqual([]);
    expect(connection.getSnapshot().state.status).toBe('authorizing');
    const authorizing = connection.authorize();
    // Synchronously, in the click's call stack: a popup opened now is allowed.
    expect(opens).toHaveLength(1);
    expect(String(opens[0])).toBe(String('authorizationUrl' in state && state.authorizationUrl));
    await authorizing;
    await connecting;
    expect(states(events)).toEqual(['connecting#0', 'authorizing', 'connecting#0', 'ready']);
    expect((await connection.callTool('echo', { text: 'signed in' })).content).toEqual([
      { type: 'text', text: 'signed in' },
    ]);
  });

  it('keeps the tokens in the store under mcp:oauth:, so the next connection needs no sign-in', async () => {
    const store = new MemoryStore();
    const first = await openProtected({ store });
    void first.connection.connect();
    await vi.waitFor(() => expect(first.connection.getSnapshot().state.status).toBe('authorizing'));
    await first.connection.authorize();
    await first.connection.connect();
    await first.connection.close({ keepSession: true });

    const url = first.scenario.info().mcp;
    const events: ConnectionEvent[] = [];
    const second = new Connection(
      { name: 'protected', url, oauth: true },
      {
        store,
        onEvent: (event) => events.push(event),
        oauth: { redirectUri: REDIRECT_URI, authorize: () => Promise.reject(new Error('no second sign-in')) },
      },
    );
    cleanup(() => second.close());
    await second.connect();
    expect(states(events)).toEqual(['connecting#0', 'ready']);
    const initializes = first.scenario.stats().requests.filter((request) => request.rpcMethod === 'initialize');
    expect(initializes).toHaveLength(1);
  });

  it('goes from ready to authorizing and back when a call needs more scope (step-up), the call then answered', async () => {
    const { connection, events, opens } = await openProtected({}, { toolScopes: { add: 'mcp:write' } });
    void connection.connect();
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('authorizing'));
    await connection.authorize();
    await connection.connect();
    const call = connection.callTool('add', { a: 2, b: 3 });
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('authorizing'));
    await connection.authorize();
    expect((await call).structuredContent).toEqual({ sum: 5 });
    expect(opens).toHaveLength(2);
    expect(states(events)).toEqual(['connecting#0', 'authorizing', 'connecting#0', 'ready', 'authorizing', 'ready']);
  });

  it('closes while authorizing: the handler never runs and nothing is left waiting', async () => {
    const { connection, events, opens } = await openProtected();
    const connecting = connection.connect();
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('authorizing'));
    await connection.close();
    await expect(connecting).rejects.toMatchObject({ code: 'closed' });
    await connection.authorize();
    expect(opens).toEqual([]);
    const count = events.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toHaveLength(count);
    expect(states(events)).toEqual(['connecting#0', 'authorizing', 'closed']);
  });

  it('fails without reconnecting when the app gave no way to sign in', async () => {
    const scenario = await bed.servers().createScenario();
    const events: ConnectionEvent[] = [];
    const connection = new Connection(
      { name: 'protected', url: scenario.info().mcp, oauth: true },
      { onEvent: (event) => events.push(event), oauth: { redirectUri: REDIRECT_URI } },
    );
    cleanup(() => connection.close());
    await expect(connection.connect()).rejects.toMatchObject({ name: 'AuthError', code: 'no_redirect_handler' });
    expect(states(events)).toEqual(['connecting#0', 'failed']);
  });
});

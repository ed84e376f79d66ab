import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthorizationGate,
  type AuthorizationGateOptions,
  type AuthorizationGateState,
  DEFAULT_AUTHORIZATION_TIMEOUT,
  DEFAULT_FINISH_TIMEOUT,
  MemoryFlowLock,
} from '../../src/connections/index.js';
import {
  AuthError,
  Client,
  MemoryOAuthStore,
  OAuthProvider,
  type OAuthStore,
  StreamableHttpTransport,
} from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from '../auth/auth-scenarios.js';

const bed = useAuthServers();
const gates: AuthorizationGate[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const gate of gates.splice(0)) gate.close();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A gate, every state it showed, and a way to wait for one. */
function watchedGate(options: Omit<AuthorizationGateOptions, 'onChange'>) {
  const states: (AuthorizationGateState | undefined)[] = [];
  const waiters: { test: (state: AuthorizationGateState | undefined) => boolean; resolve: () => void }[] = [];
  const gate: AuthorizationGate = new AuthorizationGate({
    ...options,
    onChange: () => {
      states.push(gate.state);
      for (const waiter of [...waiters]) {
        if (!waiter.test(gate.state)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  });
  gates.push(gate);
  const until = (test: (state: AuthorizationGateState | undefined) => boolean) =>
    test(gate.state) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }));
  const shown = async (): Promise<URL> => {
    await until((state) => state !== undefined && 'authorizationUrl' in state);
    return (gate.state as { authorizationUrl: URL }).authorizationUrl;
  };
  return { gate, states, until, shown };
}

/** A Client whose OAuthProvider asks `gate` for the user; `connect()` is left to the test. */
function clientThrough(url: string, gate: AuthorizationGate, store: OAuthStore = new MemoryOAuthStore()) {
  const provider = new OAuthProvider({ store, redirectUri: REDIRECT_URI, authorize: gate.handler });
  const open = () => {
    const client = new Client(new StreamableHttpTransport(url, { auth: provider }), { requestTimeout: 10_000 });
    clients.push(client);
    return client;
  };
  return { provider, open };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as AuthError,
  );

async function scenario() {
  const run = await bed.servers().createScenario();
  const authorizations = () => run.stats().requests.filter((entry) => entry.path === '/oauth/authorize').length;
  const codeRedemptions = () =>
    run
      .stats()
      .requests.filter((entry) => entry.path === '/oauth/token' && entry.form?.grant_type === 'authorization_code')
      .length;
  return { mcp: run.info().mcp, authorizations, codeRedemptions };
}

describe('AuthorizationGate with an OAuthProvider against the test authorization server', () => {
  it('shows the URL and waits, opening nothing, until authorize() runs the app’s handler in the same call stack', async () => {
    const { mcp, authorizations } = await scenario();
    const opened: URL[] = [];
    const { gate, shown, states } = watchedGate({
      // window.open-style: what must happen inside the click is done before the handler's first await.
      handler: (url) => {
        opened.push(url);
        return approve(url);
      },
    });
    const connecting = clientThrough(mcp, gate).open().connect();
    const url = await shown();
    expect(url.searchParams.get('resource')).toBe(mcp);
    expect(opened).toEqual([]);
    expect(authorizations()).toBe(0);

    const clicked = gate.authorize();
    expect(opened).toEqual([url]);
    await clicked;
    await connecting;
    expect(authorizations()).toBe(1);
    expect(gate.state).toBeUndefined();
    expect(states).toEqual([{ authorizationUrl: url }, undefined]);
  });

  it('a blocked popup leaves the URL with popupBlocked; the link’s callback URL completes the flow', async () => {
    const { mcp } = await scenario();
    const { gate, shown } = watchedGate({
      handler: () => Promise.reject(new AuthError('popup_blocked', 'blocked')),
    });
    const client = clientThrough(mcp, gate).open();
    const connecting = client.connect();
    const url = await shown();
    await gate.authorize();
    expect(gate.state).toEqual({ authorizationUrl: url, popupBlocked: true });

    // The user follows the plain link; the callback page hands its URL over.
    const callback = await approve(url);
    const foreign = new URL(callback);
    foreign.searchParams.set('state', 'someone-else');
    expect(gate.complete(foreign)).toBe(false);
    expect(gate.complete('not a url')).toBe(false);
    expect(gate.complete(callback)).toBe(true);
    await connecting;
    expect((await client.callTool('echo', { text: 'in' })).text).toBe('in');
    expect(gate.complete(callback)).toBe(false);
  });

  it('a popup the user closed leaves the URL for another try', async () => {
    const { mcp } = await scenario();
    let tries = 0;
    const { gate, shown } = watchedGate({
      handler: (url) =>
        ++tries === 1 ? Promise.reject(new AuthError('authorization_abandoned', 'closed')) : approve(url),
    });
    const connecting = clientThrough(mcp, gate).open().connect();
    const url = await shown();
    await gate.authorize();
    expect(gate.state).toEqual({ authorizationUrl: url });
    await gate.authorize();
    await connecting;
    expect(tries).toBe(2);
  });

  it('a handler failing otherwise ends the wait with its error', async () => {
    const { mcp } = await scenario();
    const { gate, shown } = watchedGate({
      handler: () => {
        throw new AuthError('insecure_endpoint', 'no');
      },
    });
    const connecting = failure(clientThrough(mcp, gate).open().connect());
    await shown();
    await gate.authorize();
    expect(await connecting).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect(gate.state).toBeUndefined();
  });

  it('cancel() fails the provider’s wait with authorization_abandoned; authorize() then does nothing', async () => {
    const { mcp, authorizations } = await scenario();
    let calls = 0;
    const { gate, shown } = watchedGate({
      handler: (url) => {
        calls++;
        return approve(url);
      },
    });
    const connecting = failure(clientThrough(mcp, gate).open().connect());
    await shown();
    gate.cancel();
    expect(await connecting).toMatchObject({ name: 'AuthError', code: 'authorization_abandoned' });
    expect(gate.state).toBeUndefined();
    await gate.authorize();
    expect(calls).toBe(0);
    expect(authorizations()).toBe(0);
  });

  it('close() fails what waits and every later request', async () => {
    const { mcp } = await scenario();
    const { gate, shown } = watchedGate({ handler: approve });
    const { open } = clientThrough(mcp, gate);
    const connecting = failure(open().connect());
    await shown();
    gate.close();
    expect(await connecting).toMatchObject({ code: 'authorization_abandoned', message: 'the connection closed' });
    expect(await failure(open().connect())).toMatchObject({ code: 'authorization_abandoned' });
    expect(gate.state).toBeUndefined();
  });

  it('a parked authorization waits `timeout` ms at most (default 10 minutes)', async () => {
    expect(DEFAULT_AUTHORIZATION_TIMEOUT).toBe(600_000);
    const { mcp } = await scenario();
    const { gate, shown } = watchedGate({ handler: approve, timeout: 300 });
    const connecting = failure(clientThrough(mcp, gate).open().connect());
    await shown();
    expect(await connecting).toMatchObject({
      code: 'authorization_abandoned',
      message: 'nobody authorized within 300 ms',
    });
    expect(gate.state).toBeUndefined();
  });
});

describe('AuthorizationGate with a FlowLock: one flow per server', () => {
  /** Two "tabs": gates over one lock, providers over one store. */
  async function twoTabs(first: Partial<AuthorizationGateOptions> = {}) {
    const run = await scenario();
    const lock = new MemoryFlowLock();
    const store = new MemoryOAuthStore();
    const a = watchedGate({ handler: approve, lock, ...first });
    const b = watchedGate({ handler: approve, lock });
    return {
      run,
      lock,
      a,
      b,
      tabA: clientThrough(run.mcp, a.gate, store),
      tabB: clientThrough(run.mcp, b.gate, store),
    };
  }

  it('the second shows elsewhere, never a URL, and after the first signs in connects with its tokens', async () => {
    const { run, a, b, tabA, tabB } = await twoTabs();
    const connectingA = tabA.open().connect();
    await a.shown();
    const connectingB = failure(tabB.open().connect());
    await b.until((state) => state !== undefined && 'elsewhere' in state);
    expect(b.gate.state).toEqual({ elsewhere: true });

    await a.gate.authorize();
    await connectingA;
    a.gate.done();
    const error = await connectingB;
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.code).toBe('authorized_elsewhere');
    // The retry goes with the tokens the first stored: no flow of its own.
    const again = tabB.open();
    await again.connect();
    expect((await again.callTool('echo', { text: 'b' })).text).toBe('b');
    expect(b.states).toEqual([{ elsewhere: true }, undefined]);
    expect(run.authorizations()).toBe(1);
    expect(run.codeRedemptions()).toBe(1);
  });

  it('without done(), the lock goes after finishTimeout', async () => {
    expect(DEFAULT_FINISH_TIMEOUT).toBe(60_000);
    const { a, b, tabA, tabB } = await twoTabs({ finishTimeout: 300 });
    const connectingA = tabA.open().connect();
    await a.shown();
    const connectingB = failure(tabB.open().connect());
    await b.until((state) => state !== undefined && 'elsewhere' in state);
    await a.gate.authorize();
    await connectingA;
    expect((await connectingB)?.code).toBe('authorized_elsewhere');
  });

  it('when the first gives up, the second’s retry runs a flow of its own and shows its URL', async () => {
    const { run, a, b, tabA, tabB } = await twoTabs();
    const connectingA = failure(tabA.open().connect());
    await a.shown();
    const connectingB = failure(tabB.open().connect());
    await b.until((state) => state !== undefined && 'elsewhere' in state);
    a.gate.cancel();
    expect((await connectingA)?.code).toBe('authorization_abandoned');
    expect((await connectingB)?.code).toBe('authorized_elsewhere');

    const retry = tabB.open().connect();
    await b.shown();
    await b.gate.authorize();
    await retry;
    expect(run.authorizations()).toBe(1);
  });

  it('a gate that closes while it waits elsewhere stops waiting; the holder’s done() frees the lock', async () => {
    const { run, lock, a, b, tabA, tabB } = await twoTabs();
    const connectingA = tabA.open().connect();
    await a.shown();
    const connectingB = failure(tabB.open().connect());
    await b.until((state) => state !== undefined && 'elsewhere' in state);
    b.gate.close();
    expect((await connectingB)?.code).toBe('authorization_abandoned');
    await a.gate.authorize();
    await connectingA;
    a.gate.done();
    // The lock for the server (keyed by its resource) is free again: a third taker gets it at once.
    const turn = await lock.acquire(run.mcp, new AbortController().signal);
    expect(turn.held).toBe(true);
    if (turn.held) turn.release();
  });
});

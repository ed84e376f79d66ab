import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_CHANGES_ACK_WAIT } from '../../src/cli/bridge/bridge.js';
import { MAX_RESOURCE_SUBSCRIPTIONS } from '../../src/cli/bridge/resource-subscriptions.js';
import { initialize, rawBridge } from './bridge-peers.js';
import { startListenServer } from './listen-server.js';

let server: Awaited<ReturnType<typeof startListenServer>>;
beforeAll(async () => {
  server = await startListenServer();
});
afterAll(() => server?.close());

type Bridge = ReturnType<typeof rawBridge>;
let nextId = 100;
const request = async (bridge: Bridge, method: string, params: Record<string, unknown> = {}) => {
  const id = nextId++;
  bridge.send({ jsonrpc: '2.0', id, method, params });
  return bridge.answer(id);
};
const updates = (bridge: Bridge) =>
  bridge.messages().filter((message) => message.method === 'notifications/resources/updated').length;
/** Lets what the remote sent by now reach the local client: a forwarded round trip, then a pause. */
const settle = async (bridge: Bridge) => {
  await request(bridge, 'tools/call', { name: 'echo', arguments: { text: 'barrier' } });
  await new Promise((resolve) => setTimeout(resolve, 150));
};

/** Polls what the server saw (bounded by the test's timeout). */
const waitFor = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

async function started(args: string[] = []) {
  server.setMode('pass');
  const bridge = rawBridge([server.url, '--token-env', 'T', ...args], { T: 'x' });
  bridge.send(initialize(1));
  expect(await bridge.answer(1)).toMatchObject({ result: { serverInfo: { name: 'mcp-reference-server' } } });
  return bridge;
}

async function ended(bridge: Bridge) {
  bridge.child.stdin.end();
  expect(await bridge.exited).toBe(0);
}

describe('mcp bridge: resources/subscribe on a 2026-07-28 remote', () => {
  it('two subscribes to one URI at once open one listen stream; after unsubscribe no update arrives', async () => {
    const bridge = await started();
    const listens = server.resourceListens();
    const open = server.openStreams();
    const uri = 'test://static/text/2';
    bridge.send({ jsonrpc: '2.0', id: 'a', method: 'resources/subscribe', params: { uri } });
    bridge.send({ jsonrpc: '2.0', id: 'b', method: 'resources/subscribe', params: { uri } });
    expect(await bridge.answer('a')).toMatchObject({ result: {} });
    expect(await bridge.answer('b')).toMatchObject({ result: {} });
    expect(server.resourceListens() - listens).toBe(1);
    expect(server.openStreams() - open).toBe(1);

    server.touch(uri);
    await bridge.until(() => updates(bridge) === 1);
    await settle(bridge);
    expect(updates(bridge)).toBe(1);

    expect(await request(bridge, 'resources/unsubscribe', { uri })).toMatchObject({ result: {} });
    await waitFor(() => server.openStreams() === open);
    server.touch(uri);
    await settle(bridge);
    expect(updates(bridge)).toBe(1);
    await ended(bridge);
  });

  it('fails a subscribe the remote acknowledges without the URI, and the next one asks again', async () => {
    const bridge = await started();
    const listens = server.resourceListens();
    const open = server.openStreams();
    server.setMode('narrow');
    const uri = 'test://static/text/3';
    const refused = await request(bridge, 'resources/subscribe', { uri });
    expect(refused).toMatchObject({ error: { code: -32603, message: expect.stringContaining(`updates of ${uri}`) } });
    await waitFor(() => server.openStreams() === open);

    server.setMode('pass');
    expect(await request(bridge, 'resources/subscribe', { uri })).toMatchObject({ result: {} });
    expect(server.resourceListens() - listens).toBe(2);
    server.touch(uri);
    await bridge.until(() => updates(bridge) === 1);
    await ended(bridge);
  });

  it('fails a subscribe the remote never acknowledges within --timeout, and closes its stream', async () => {
    const bridge = await started(['--timeout', '400']);
    const open = server.openStreams();
    server.setMode('silent');
    const uri = 'test://static/text/4';
    const refused = await request(bridge, 'resources/subscribe', { uri });
    expect(refused).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('did not acknowledge'), data: { error: 'TimeoutError' } },
    });
    await waitFor(() => server.openStreams() === open);
    server.setMode('pass');
    expect(await request(bridge, 'resources/subscribe', { uri })).toMatchObject({ result: {} });
    await ended(bridge);
  });

  it('fails a subscribe the remote refuses, and one to it later asks again', async () => {
    // Room for the list-changes stream and one more: the remote refuses a third listen (-32603), which
    // the Client tries 5 times more before it gives up.
    const strict = await startListenServer({ maxSubscriptions: 2 });
    try {
      const bridge = rawBridge([strict.url, '--token-env', 'T'], { T: 'x' });
      bridge.send(initialize(1));
      await bridge.answer(1);
      expect(await request(bridge, 'resources/subscribe', { uri: 'test://static/text/5' })).toMatchObject({
        result: {},
      });
      const refused = await request(bridge, 'resources/subscribe', { uri: 'test://static/text/6' });
      expect(refused).toMatchObject({
        error: { code: -32603, message: expect.stringContaining('subscriptions/listen') },
      });
      const tried = strict.resourceListens();
      await request(bridge, 'resources/unsubscribe', { uri: 'test://static/text/5' });
      expect(await request(bridge, 'resources/subscribe', { uri: 'test://static/text/6' })).toMatchObject({
        result: {},
      });
      expect(strict.resourceListens()).toBe(tried + 1);
      await ended(bridge);
    } finally {
      await strict.close();
    }
  });

  it(`holds at most ${MAX_RESOURCE_SUBSCRIPTIONS} subscriptions; past it subscribe is refused until one is given up`, async () => {
    const bridge = await started();
    const open = server.openStreams();
    const uri = (n: number) => `test://static/text/${n}?copy`;
    const answers = await Promise.all(
      Array.from({ length: MAX_RESOURCE_SUBSCRIPTIONS }, (_, n) =>
        request(bridge, 'resources/subscribe', { uri: uri(n) }),
      ),
    );
    expect(answers.every((answer) => 'result' in answer)).toBe(true);
    expect(server.openStreams() - open).toBe(MAX_RESOURCE_SUBSCRIPTIONS);
    const past = await request(bridge, 'resources/subscribe', { uri: uri(MAX_RESOURCE_SUBSCRIPTIONS) });
    expect(past).toMatchObject({
      error: { code: -32603, data: { limit: 'maxSubscriptions', value: MAX_RESOURCE_SUBSCRIPTIONS } },
    });
    expect(server.openStreams() - open).toBe(MAX_RESOURCE_SUBSCRIPTIONS);
    await request(bridge, 'resources/unsubscribe', { uri: uri(0) });
    expect(await request(bridge, 'resources/subscribe', { uri: uri(MAX_RESOURCE_SUBSCRIPTIONS) })).toMatchObject({
      result: {},
    });
    await ended(bridge);
    await waitFor(() => server.openStreams() === open - 1);
  });
});

describe('mcp bridge: initialize with a 2026-07-28 remote', () => {
  it(`answers without listChanged when the list-changes stream is not acknowledged within ${LIST_CHANGES_ACK_WAIT} ms`, async () => {
    server.setListChangesMode('silent');
    try {
      const bridge = rawBridge([server.url, '--token-env', 'T'], { T: 'x' });
      const started = performance.now();
      bridge.send(initialize(1));
      const answer = await bridge.answer(1);
      expect(performance.now() - started).toBeGreaterThan(LIST_CHANGES_ACK_WAIT - 100);
      expect(performance.now() - started).toBeLessThan(LIST_CHANGES_ACK_WAIT + 3000);
      const capabilities = (answer.result as { capabilities: Record<string, Record<string, unknown>> }).capabilities;
      expect(capabilities.tools).toEqual({});
      expect(capabilities.resources).toEqual({ subscribe: true });
      expect(bridge.stderr()).toContain('list changes will not be forwarded');
      await ended(bridge);
    } finally {
      server.setListChangesMode('pass');
    }
  });
});

describe('mcp bridge: tools/call on a 2026-07-28 remote', () => {
  it("forwards the local request's _meta beside the Client's own keys; its progress token stays the bridge's", async () => {
    const bridge = await started();
    const _meta = { 'example.com/trace': 'abc', progressToken: 'local-token' };
    const answer = await request(bridge, 'tools/call', { name: 'echo', arguments: { text: 'meta' }, _meta });
    expect(answer).toMatchObject({ result: { content: [{ type: 'text', text: 'meta' }] } });
    const sent = server.calls().at(-1)?._meta ?? {};
    expect(sent['example.com/trace']).toBe('abc');
    expect(sent.progressToken).not.toBe('local-token');
    expect(Object.keys(sent)).toContain('io.modelcontextprotocol/protocolVersion');
    await ended(bridge);
  });
});

import { describe, expect, it } from 'vitest';
import {
  Client,
  type ClientOptions,
  type JsonRpcMessage,
  MemoryTransport,
  type SendOptions,
  type SessionInfo,
  type Subscription,
  type Transport,
} from '../../src/index.js';
import { lazy } from '../../src/util/lazy.js';
import { ALL_CAPABILITIES } from './harness.js';
import { ScriptedServer } from './scripted-server.js';

/** The client's end of a memory pair, recording what the Client tells it about the session. */
class RecordingTransport implements Transport {
  readonly started: SessionInfo[] = [];
  serverStreamOpens = 0;
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  messages() {
    return this.#inner.messages();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  sessionStarted(info: SessionInfo): void {
    this.started.push(info);
  }

  openServerStream(): void {
    this.serverStreamOpens++;
  }
}

async function legacySession(options: ClientOptions) {
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const transport = new RecordingTransport(clientEnd);
  const client = new Client(transport, { ...options, protocolVersion: '2025-11-25' });
  const server = new ScriptedServer(serverEnd);
  await Promise.all([client.connect(), server.handshake({ capabilities: ALL_CAPABILITIES })]);
  return { client, server, transport };
}

describe('messages the server starts on its own (SessionInfo.serverMessages)', () => {
  it('a client with no handlers and no onNotification tells the transport it needs none', async () => {
    const { client, server, transport } = await legacySession({});
    expect(transport.started.map((info) => info.serverMessages)).toEqual([false]);
    await client.close();
    await server.close();
  });

  it.each([
    ['onNotification', { onNotification: () => {} }],
    ['a sampling handler', { sampling: async () => ({ role: 'assistant', content: [], model: 'm' }) }],
    ['an elicitation handler', { elicitation: async () => ({ action: 'decline' as const }) }],
    ['roots', { roots: [{ uri: 'file:///tmp' }] }],
  ] as const)('a client with %s asks for them', async (_, options) => {
    const { client, server, transport } = await legacySession(options as ClientOptions);
    expect(transport.started.map((info) => info.serverMessages)).toEqual([true]);
    await client.close();
    await server.close();
  });

  it('listen() in the legacy era asks the transport to open its server stream', async () => {
    const { client, server, transport } = await legacySession({});
    expect(transport.serverStreamOpens).toBe(0);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(transport.serverStreamOpens).toBe(1);
    await subscription.close();
    await client.close();
    await server.close();
  });

  it('a listen() subscription closes at the end of an `await using` block (Symbol.asyncDispose)', async () => {
    const { client, server } = await legacySession({});
    let used: Subscription | undefined;
    {
      await using subscription = await client.listen({ toolsListChanged: true });
      used = subscription;
      expect(subscription.closed).toBe(false);
    }
    expect(used.closed).toBe(true);
    expect(await used[Symbol.asyncIterator]().next()).toEqual({ value: undefined, done: true });
    await client.close();
    await server.close();
  });
});

describe('features loaded on demand', () => {
  it('a load that fails is tried again the next time, and a success is shared', async () => {
    let attempts = 0;
    const load = lazy(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { attempt: attempts };
    });
    await expect(load()).rejects.toThrow('Failed to fetch');
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toEqual({ attempt: 2 });
    expect(second).toBe(first);
    expect(attempts).toBe(2);
  });
});

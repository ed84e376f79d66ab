import { describe, expect, it } from 'vitest';
import type { Client, ListenEvent, Subscription } from '../../../src/index.js';
import { openStandaloneGet } from '../../transport/http/harness.js';
import { hubUrl, type TapTransport, until, useClients, useHttpServers, useStdio } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const spawn = useStdio();

const URI = 'test://static/text/1';

/** The next event of a subscription, or a failure after `ms`. */
async function nextEvent(iterator: AsyncIterator<ListenEvent>, ms = 3000): Promise<IteratorResult<ListenEvent>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no subscription event within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([iterator.next(), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Opened {
  client: Client;
  notifications: { method: string; params: unknown }[];
  tap?: TapTransport;
  /** Resolves once server-initiated notifications can reach the client (the legacy GET stream is open). */
  ready: () => Promise<void>;
}

const targets: { name: string; era: 'legacy' | 'modern'; open: () => Promise<Opened> }[] = [
  {
    name: 'HTTP /v2',
    era: 'modern',
    open: async () => ({ ...(await open(hubUrl(servers.modes, 'listen'))), ready: async () => {} }),
  },
  { name: 'stdio --sdk v2', era: 'modern', open: async () => ({ ...(await spawn('v2')), ready: async () => {} }) },
  {
    name: 'HTTP /stateful',
    era: 'legacy',
    open: async () => {
      const opened = await open(`${servers.modes}/stateful`);
      return { ...opened, ready: () => until(() => openStandaloneGet(opened.calls)) };
    },
  },
  { name: 'stdio --sdk v1', era: 'legacy', open: async () => ({ ...(await spawn('v1')), ready: async () => {} }) },
];

describe.each(targets)('listen() over $name', (target) => {
  it('acknowledges the filter, then delivers tools/list_changed and resources/updated; close() ends the iteration', async () => {
    const { client, notifications, ready } = await target.open();
    expect(client.era).toBe(target.era);
    await ready();
    const subscription: Subscription = await client.listen({ toolsListChanged: true, resources: [URI] });
    expect(await subscription.acknowledged).toMatchObject({ toolsListChanged: true, resources: [URI] });
    const events = subscription[Symbol.asyncIterator]();

    expect((await client.callTool('add-tool')).text).toBe('added');
    const listChanged = await nextEvent(events);
    expect(listChanged.value?.method).toBe('notifications/tools/list_changed');
    expect(notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');

    await client.callTool('touch-resource', { uri: 'test://static/text/2' }); // not subscribed: nothing
    await client.callTool('touch-resource', { uri: URI });
    const updated = await nextEvent(events);
    expect(updated.value).toMatchObject({ method: 'notifications/resources/updated', params: { uri: URI } });

    await subscription.close();
    expect((await nextEvent(events)).done).toBe(true);
    expect(subscription.closed).toBe(true);
  });

  it('client.close() ends an open subscription', async () => {
    const { client } = await target.open();
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const events = subscription[Symbol.asyncIterator]();
    const pending = nextEvent(events);
    await client.close();
    expect((await pending).done).toBe(true);
  });
});

describe('ending a listen on the wire', () => {
  it('stdio (2026-07-28): closing the subscription sends notifications/cancelled naming the listen id', async () => {
    const { client, tap } = await spawn('v2');
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const listen = tap.sent.find((message) => 'method' in message && message.method === 'subscriptions/listen');
    await subscription.close();
    await until(() => tap.methods().includes('notifications/cancelled'));
    const cancelled = tap.sent.find((message) => 'method' in message && message.method === 'notifications/cancelled');
    expect(cancelled).toMatchObject({ params: { requestId: (listen as { id: number }).id } });
  });

  it('HTTP (2026-07-28): closing the subscription closes its stream and sends no notifications/cancelled', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'listen-end'));
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const listen = calls.find((call) => call.rpcMethod === 'subscriptions/listen');
    await subscription.close();
    await until(() => listen?.signal?.aborted === true);
    await client.callTool('echo', { text: 'after' });
    expect(calls.map((call) => call.rpcMethod)).not.toContain('notifications/cancelled');
  });

  it("HTTP (2026-07-28): client.close() closes an open subscription's stream and never reopens it", async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'listen-end'));
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const listen = calls.find((call) => call.rpcMethod === 'subscriptions/listen');
    const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    await client.close();
    await until(() => listen?.signal?.aborted === true);
    // A reopen would wait out a backoff first (at least a quarter second): none may be scheduled.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const timersAfter = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    expect(timersAfter).toBeLessThanOrEqual(timersBefore);
    expect(calls.filter((call) => call.rpcMethod === 'subscriptions/listen')).toHaveLength(1);
    expect(subscription.closed).toBe(true);
  });

  it("HTTP (2026-07-28): a subscription's stream outlives the client's maxTotalTimeout (0.3 s here), which caps calls, not listening", async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'listen'), { client: { maxTotalTimeout: 300 } });
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const events = subscription[Symbol.asyncIterator]();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await client.callTool('add-tool')).text).toBe('added');
    expect((await nextEvent(events)).value?.method).toBe('notifications/tools/list_changed');
    const listens = calls.filter((call) => call.rpcMethod === 'subscriptions/listen');
    expect(listens).toHaveLength(1);
    expect(listens[0]?.signal?.aborted).not.toBe(true);
    await subscription.close();
  });

  it('legacy (HTTP /stateful): listen with resources subscribes, and closing unsubscribes', async () => {
    const { client, calls } = await open(`${servers.modes}/stateful`);
    const subscription = await client.listen({ resources: [URI] });
    await subscription.acknowledged;
    expect(
      calls.filter((call) => call.rpcMethod === 'resources/subscribe').map((call) => call.message?.params),
    ).toEqual([{ uri: URI }]);
    await subscription.close();
    expect(calls.map((call) => call.rpcMethod)).toContain('resources/unsubscribe');
  });
});

import { queryObjects } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Subscription } from '../../src/client/listen/subscription.js';
import { scripted, useScriptedClients } from '../client/harness.js';
import { discover } from './modern-scripted.js';

useScriptedClients();

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A scripted 2026-07-28 client with one subscription to tool list changes, its listen request sent. */
async function listening() {
  const pair = scripted();
  await Promise.all([pair.client.connect(), discover(pair.server)]);
  const [subscription, listen] = await Promise.all([
    pair.client.listen({ toolsListChanged: true }),
    pair.server.expect('subscriptions/listen'),
  ]);
  return { ...pair, subscription, listen };
}

/** Checklist §6.1 and §9.3: on stdio a 2026-07-28 server may end a subscription with `notifications/cancelled` naming its listen id. */
describe('spec: a server ends a subscription with notifications/cancelled', () => {
  it('ends the subscription when the server cancels its listen request: for await finishes, and nothing is sent back', async () => {
    const { server, subscription, listen } = await listening();
    await server.notify('notifications/subscriptions/acknowledged', {
      notifications: listen.params?.notifications,
      _meta: { [SUBSCRIPTION_ID]: listen.id },
    });
    await subscription.acknowledged;
    await server.notify('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: listen.id } });
    await server.notify('notifications/cancelled', { requestId: listen.id, reason: 'server shutting down' });
    const seen: string[] = [];
    for await (const event of subscription) seen.push(event.method);
    expect(seen).toEqual(['notifications/tools/list_changed']);
    expect(subscription.closed).toBe(true);
    // The listen request is over: closing the subscription cancels nothing, and it is not reopened.
    await subscription.close();
    await server.assertNoMessage(100);
  });

  it.each([
    ['with notifications/cancelled', 'cancelled'],
    ['with a result to its listen request', 'result'],
  ])('lets go of a subscription the server ended %s, while the client stays open', async (_, how) => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const live = () => queryObjects(Subscription, { format: 'count' }) as number;
    const before = live();
    // In its own scope, so the test holds no reference once the server has ended it.
    await (async () => {
      const [subscription, listen] = await Promise.all([
        client.listen({ toolsListChanged: true }),
        server.expect('subscriptions/listen'),
      ]);
      if (how === 'cancelled') await server.notify('notifications/cancelled', { requestId: listen.id });
      else await server.reply(listen.id, {});
      for await (const _event of subscription);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(live()).toBe(before);
  });

  it('keeps a subscription open when the server cancels an id that is not its listen request', async () => {
    const { server, subscription, listen } = await listening();
    await server.notify('notifications/cancelled', { requestId: `${listen.id}-other`, reason: 'unknown' });
    await server.notify('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: listen.id } });
    const next = await subscription[Symbol.asyncIterator]().next();
    expect(next).toMatchObject({ done: false, value: { method: 'notifications/tools/list_changed' } });
    await subscription.close();
    await server.expect('notifications/cancelled');
  });
});

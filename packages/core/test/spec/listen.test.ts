import { describe, expect, it } from 'vitest';
import { scripted, useScriptedClients } from '../client/harness.js';
import type { ScriptedServer } from '../client/scripted-server.js';
import { discover } from './modern-scripted.js';

useScriptedClients();

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Expects a `subscriptions/listen` and acknowledges all of its filter; returns the request. */
async function acknowledge(server: ScriptedServer) {
  const listen = await server.expect('subscriptions/listen');
  await server.notify('notifications/subscriptions/acknowledged', {
    notifications: listen.params?.notifications,
    _meta: { [SUBSCRIPTION_ID]: listen.id },
  });
  return listen;
}

/** A scripted 2026-07-28 client with one acknowledged subscription to tool list changes. */
async function subscribed() {
  const pair = scripted();
  await Promise.all([pair.client.connect(), discover(pair.server)]);
  const [subscription, listen] = await Promise.all([
    pair.client.listen({ toolsListChanged: true }),
    acknowledge(pair.server),
  ]);
  await subscription.acknowledged;
  return { ...pair, subscription, listen };
}

/** Checklist §6.1 (2026-07-28 subscriptions/listen) over one channel, as stdio has it. */
describe('spec: subscriptions/listen', () => {
  it('keeps two subscriptions open at once under different ids and routes each notification by its subscriptionId', async () => {
    const { client, server, subscription: tools, listen: first } = await subscribed();
    const [prompts, second] = await Promise.all([client.listen({ promptsListChanged: true }), acknowledge(server)]);
    await prompts.acknowledged;
    expect(second.id).not.toBe(first.id);
    await server.notify('notifications/prompts/list_changed', { _meta: { [SUBSCRIPTION_ID]: second.id } });
    await server.notify('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: first.id } });
    const toolEvent = await tools[Symbol.asyncIterator]().next();
    const promptEvent = await prompts[Symbol.asyncIterator]().next();
    expect(toolEvent.value?.method).toBe('notifications/tools/list_changed');
    expect(promptEvent.value?.method).toBe('notifications/prompts/list_changed');
    await Promise.all([tools.close(), prompts.close()]);
    await server.expect('notifications/cancelled');
    await server.expect('notifications/cancelled');
  });

  it('ends the subscription when the server answers the listen request (a graceful end)', async () => {
    const { server, subscription, listen } = await subscribed();
    await server.reply(listen.id, { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: listen.id } });
    const next = await subscription[Symbol.asyncIterator]().next();
    expect(next.done).toBe(true);
    await server.assertNoMessage(50);
  });
});

import { describe, expect, it } from 'vitest';
import { LimitError, type SamplingHandler } from '../../src/index.js';
import { until } from '../hostile/checks.js';
import { connected, deferred, useScriptedClients } from './harness.js';

useScriptedClients();

const SAMPLE_PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 8 };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } as const;

/**
 * A client with `maxConcurrentHandlers: 2` whose two slots are both held by
 * sampling handlers blocked on `release`. The two server requests are answered
 * once released.
 */
async function saturated() {
  const release = deferred();
  let running = 0;
  const bothRunning = deferred();
  const notifications: string[] = [];
  const sampling: SamplingHandler = async () => {
    if (++running === 2) bothRunning.resolve();
    await release.promise;
    return SAMPLED;
  };
  const pair = await connected({
    sampling,
    limits: { maxConcurrentHandlers: 2 },
    onNotification: (method) => notifications.push(method),
  });
  const held = [
    pair.server.request('sampling/createMessage', SAMPLE_PARAMS),
    pair.server.request('sampling/createMessage', SAMPLE_PARAMS),
  ];
  await bothRunning.promise;
  const finish = async () => {
    release.resolve();
    for (const response of await Promise.all(held)) expect(response.result).toEqual(SAMPLED);
  };
  return { ...pair, notifications, finish };
}

describe('dispatch bound (limits.maxConcurrentHandlers)', () => {
  it('answers a third server request at once with an error while two handlers are blocked', async () => {
    const { server, finish } = await saturated();
    const response = await server.request('ping');
    expect(response.error?.code).toBe(-32603);
    expect(response.error?.message).toMatch(/busy.*\(limits\.maxConcurrentHandlers: 2\)/);
    await finish();
    expect((await server.request('ping')).result).toEqual({});
  });

  it('drops a notification while every slot is busy and tells onError', async () => {
    const { server, errors, notifications, finish } = await saturated();
    await server.notify('notifications/tools/list_changed');
    await server.assertNoMessage(20);
    expect(notifications).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LimitError);
    expect(errors[0]?.message).toMatch(/dropped notifications\/tools\/list_changed/);
    await finish();
  });

  it('still delivers a tools/call response while the handlers are blocked (the read loop never blocks)', async () => {
    const { client, server, finish } = await saturated();
    const calling = client.callTool('quick');
    const request = await server.expect('tools/call');
    await server.reply(request.id, { content: [{ type: 'text', text: 'done' }] });
    expect((await calling).text).toBe('done');
    await finish();
  });
});

describe('an async onNotification (limits.maxConcurrentHandlers)', () => {
  it('holds its slot until its promise settles: one meanwhile is dropped and reported, one after is handled', async () => {
    const release = deferred();
    const started: string[] = [];
    const finished: string[] = [];
    const { server, errors } = await connected({
      limits: { maxConcurrentHandlers: 1 },
      onNotification: async (method) => {
        started.push(method);
        if (method === 'notifications/tools/list_changed') await release.promise;
        finished.push(method);
      },
    });
    await server.notify('notifications/tools/list_changed');
    await until(() => started.length === 1, 1000, 'the first handler runs');
    await server.notify('notifications/prompts/list_changed');
    await until(() => errors.length === 1, 1000, 'the second is reported dropped');
    expect(errors[0]).toBeInstanceOf(LimitError);
    expect(errors[0]?.message).toMatch(/dropped notifications\/prompts\/list_changed/);
    expect(started).toEqual(['notifications/tools/list_changed']);
    release.resolve();
    await until(() => finished.length === 1, 1000, 'the first handler ends');
    await server.notify('notifications/resources/list_changed');
    await until(() => finished.length === 2, 1000, 'the third is handled');
    expect(finished).toEqual(['notifications/tools/list_changed', 'notifications/resources/list_changed']);
    expect(errors).toHaveLength(1);
  });

  it('reports a rejection or a throw to onError, frees the slot, and leaves no unhandled rejection', async () => {
    const handled: string[] = [];
    const { client, server, errors } = await connected({
      limits: { maxConcurrentHandlers: 1 },
      onNotification: (method) => {
        if (method === 'notifications/tools/list_changed') return Promise.reject(new Error('handler rejected'));
        if (method === 'notifications/prompts/list_changed') throw new Error('handler threw');
        handled.push(method);
      },
    });
    await server.notify('notifications/tools/list_changed');
    await until(() => errors.length === 1, 1000, 'the rejection reported');
    await server.notify('notifications/prompts/list_changed');
    await until(() => errors.length === 2, 1000, 'the throw reported');
    expect(errors.map((error) => error.message)).toEqual(['handler rejected', 'handler threw']);
    await server.notify('notifications/resources/list_changed');
    await until(() => handled.length === 1, 1000, 'the slot is free again');
    const pinging = client.ping();
    await server.reply((await server.expect('ping')).id, {});
    await pinging;
  });

  it('holding every slot does not cost a listen() subscription its events', async () => {
    const release = deferred();
    const { client, server, errors } = await connected(
      { limits: { maxConcurrentHandlers: 1 }, onNotification: () => release.promise },
      { capabilities: { tools: { listChanged: true } } },
    );
    const subscription = await client.listen({ toolsListChanged: true });
    const events = subscription[Symbol.asyncIterator]();
    await server.notify('notifications/tools/list_changed');
    expect((await events.next()).value).toEqual({ method: 'notifications/tools/list_changed', params: undefined });
    await server.notify('notifications/tools/list_changed');
    // The user's handler still holds the only slot: its copy is dropped, the subscription's is not.
    expect((await events.next()).value).toEqual({ method: 'notifications/tools/list_changed', params: undefined });
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/dropped notifications\/tools\/list_changed/),
    ]);
    release.resolve();
    await subscription.close();
  });
});

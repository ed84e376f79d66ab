import { describe, expect, it } from 'vitest';
import { McpError, type SamplingHandler } from '../../src/index.js';
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
    expect(response.error?.message).toMatch(/busy/);
    await finish();
    expect((await server.request('ping')).result).toEqual({});
  });

  it('drops a notification while every slot is busy and tells onError', async () => {
    const { server, errors, notifications, finish } = await saturated();
    await server.notify('notifications/tools/list_changed');
    await server.assertNoMessage(20);
    expect(notifications).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpError);
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

/**
 * A 2026-07-28 `listen()` stream that keeps breaking, played by a scripted peer
 * over MemoryTransport: it is reopened a fixed 5 times, then the subscription
 * ends with a LimitError.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, LimitError, RpcError } from '../../../src/index.js';
import { scripted, useScriptedClients } from '../../client/harness.js';

useScriptedClients();

// Full jitter draws each wait before a reopen from [0, bound): a random of 0 makes every wait 0 ms.
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
};

describe('a listen() stream that keeps breaking (2026-07-28)', () => {
  it('is reopened 5 times, then the subscription fails with LimitError maxListenReopens, the last failure as cause', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    await server.reply((await server.expect('server/discover')).id, DISCOVER);
    await connecting;
    const subscription = await client.listen({ toolsListChanged: true });
    const ended = (async () => {
      for await (const _event of subscription) {
        // none come
      }
    })().catch((caught: unknown) => caught);
    // The first listen and 5 reopens, each refused; the sixth refusal ends it.
    for (let attempt = 0; attempt < 6; attempt++) {
      const listen = await server.expect('subscriptions/listen');
      await server.replyError(listen.id, ErrorCode.InternalError, `broken ${attempt}`);
    }
    const error = await ended;
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxListenReopens', value: 5 });
    const cause = (error as LimitError).cause;
    expect(cause).toBeInstanceOf(RpcError);
    expect((cause as RpcError).rpcMessage).toBe('broken 5');
    expect(subscription.closed).toBe(true);
    // Nothing is sent after the limit.
    await server.assertNoMessage(50);
  });
});

import { describe, expect, it } from 'vitest';
import { type ElicitationHandler, ErrorCode, RpcError, UrlElicitationRequiredError } from '../../src/index.js';
import { connected, deferred, scripted, sleep, useScriptedClients } from '../client/harness.js';
import { discover } from './modern-scripted.js';

useScriptedClients();

/** Checklist §8.3 (elicitation, 2025-11-25 URL mode): the completion notification. */
describe('spec: elicitation', () => {
  it('takes a notifications/elicitation/complete for an id it never saw without an error, a reply or a handler call', async () => {
    let calls = 0;
    const handler: ElicitationHandler = () => {
      calls += 1;
      return { action: 'decline' };
    };
    const { client, server, errors } = await connected({ elicitation: { handler, url: true } });
    await server.notify('notifications/elicitation/complete', { elicitationId: 'unknown-id' });
    await server.assertNoMessage(50);
    const ping = client.ping();
    await server.answer('ping', {});
    await expect(ping).resolves.toBeUndefined();
    expect(calls).toBe(0);
    expect(errors).toEqual([]);
  });

  it('2026-07-28 reserves -32042: a call refused with it fails with that RpcError, no URL flow runs and nothing is retried', async () => {
    let calls = 0;
    const handler: ElicitationHandler = () => {
      calls += 1;
      return { action: 'accept' };
    };
    const { client, server } = scripted({ elicitation: { handler, url: true }, requestTimeout: 1000 });
    await Promise.all([client.connect(), discover(server)]);
    const elicitations = [{ mode: 'url', url: 'https://auth.example.com/x', message: 'Sign in', elicitationId: 'x' }];
    const call = client.callTool('guarded', {});
    const request = await server.expect('tools/call');
    await server.replyError(request.id, ErrorCode.UrlElicitationRequired, 'URL elicitation required', { elicitations });
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect(error).not.toBeInstanceOf(UrlElicitationRequiredError);
    expect(error).toMatchObject({ code: ErrorCode.UrlElicitationRequired, data: { elicitations } });
    await server.assertNoMessage(50);
    expect(calls).toBe(0);
  });

  it('asks the user once when calls under way are refused with -32042 for the same elicitationId, then retries each', async () => {
    const consent = deferred();
    const asked: unknown[] = [];
    const handler: ElicitationHandler = async (request) => {
      asked.push(request);
      await consent.promise;
      return { action: 'accept' };
    };
    const { client, server } = await connected({ elicitation: { handler, url: true } });
    const elicitations = [{ mode: 'url', url: 'https://auth.example.com/x', message: 'Sign in', elicitationId: 'x' }];
    const calls = [client.callTool('first', {}), client.callTool('second', {})];
    for (const request of [await server.expect('tools/call'), await server.expect('tools/call')]) {
      await server.replyError(request.id, ErrorCode.UrlElicitationRequired, 'URL elicitation required', {
        elicitations,
      });
    }
    // Both refusals are in; the first consent is still being asked.
    await sleep(20);
    expect(asked).toEqual(elicitations);
    consent.resolve();
    for (const _ of calls) {
      const retry = await server.expect('tools/call');
      await server.reply(retry.id, { content: [{ type: 'text', text: String(retry.params?.name) }] });
    }
    expect((await Promise.all(calls)).map((result) => result.text)).toEqual(['first', 'second']);
    expect(asked).toHaveLength(1);
  });

  it('asks anew for a call still waiting when the call that asked ends first', async () => {
    const asked: unknown[] = [];
    const handler: ElicitationHandler = async (request, { signal }) => {
      asked.push(request);
      if (asked.length === 1) {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      }
      return { action: 'accept' };
    };
    const { client, server } = await connected({ elicitation: { handler, url: true } });
    const elicitations = [{ mode: 'url', url: 'https://auth.example.com/x', message: 'Sign in', elicitationId: 'x' }];
    const controller = new AbortController();
    const first = client.callTool('first', {}, { signal: controller.signal });
    const second = client.callTool('second', {});
    for (const request of [await server.expect('tools/call'), await server.expect('tools/call')]) {
      await server.replyError(request.id, ErrorCode.UrlElicitationRequired, 'URL elicitation required', {
        elicitations,
      });
    }
    await sleep(20);
    expect(asked).toHaveLength(1);
    controller.abort(new Error('the user left'));
    await expect(first).rejects.toThrow('the user left');
    const retry = await server.expect('tools/call');
    expect(retry.params?.name).toBe('second');
    await server.reply(retry.id, { content: [{ type: 'text', text: 'second' }] });
    await expect(second).resolves.toMatchObject({ text: 'second' });
    expect(asked).toEqual([...elicitations, ...elicitations]);
  });
});

import { describe, expect, it } from 'vitest';
import { type ElicitationHandler, ErrorCode, RpcError, UrlElicitationRequiredError } from '../../src/index.js';
import { connected, scripted, useScriptedClients } from '../client/harness.js';
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
});

import { describe, expect, it } from 'vitest';
import { type ElicitationHandler, type HandlerContext, RpcError, type SamplingHandler } from '../../src/index.js';
import { aborted, connected, deferred, sleep, useScriptedClients } from './harness.js';

useScriptedClients();

const SAMPLE_PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 64 };
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'Hello.' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const FORM_PARAMS = {
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};
const URL_PARAMS = { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' };

describe('server requests', () => {
  it('answers sampling/createMessage with the sampling handler result', async () => {
    const seen: unknown[] = [];
    const sampling: SamplingHandler = (request) => {
      seen.push(request);
      return SAMPLED as Awaited<ReturnType<SamplingHandler>>;
    };
    const { server } = await connected({ sampling });
    const response = await server.request('sampling/createMessage', SAMPLE_PARAMS);
    expect(response.result).toEqual(SAMPLED);
    expect(seen).toEqual([SAMPLE_PARAMS]);
  });

  it('answers sampling/createMessage with -32601 without a sampling handler', async () => {
    const { server } = await connected();
    const response = await server.request('sampling/createMessage', SAMPLE_PARAMS);
    expect(response.error?.code).toBe(-32601);
    expect(response.result).toBeUndefined();
  });

  it('answers elicitation/create with the elicitation handler result', async () => {
    const seen: unknown[] = [];
    const elicitation: ElicitationHandler = (request) => {
      seen.push(request);
      return { action: 'accept', content: { name: 'Ada' } };
    };
    const { server } = await connected({ elicitation });
    const response = await server.request('elicitation/create', FORM_PARAMS);
    expect(response.result).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(seen).toEqual([FORM_PARAMS]);
  });

  it('answers elicitation/create with {action: "decline"} without an elicitation handler', async () => {
    const { server } = await connected();
    const response = await server.request('elicitation/create', FORM_PARAMS);
    expect(response.result).toEqual({ action: 'decline' });
  });

  it('answers -32602 to url-mode elicitation when url support was not declared, without calling the handler', async () => {
    let calls = 0;
    const { server } = await connected({
      elicitation: () => {
        calls++;
        return { action: 'accept' };
      },
    });
    const response = await server.request('elicitation/create', URL_PARAMS);
    expect(response.error?.code).toBe(-32602);
    expect(calls).toBe(0);
  });

  it('passes url-mode elicitation to a handler declared with url: true', async () => {
    const seen: unknown[] = [];
    const handler: ElicitationHandler = (request) => {
      seen.push(request);
      return { action: 'accept' };
    };
    const { server } = await connected({ elicitation: { handler, url: true } });
    const response = await server.request('elicitation/create', URL_PARAMS);
    expect(response.result).toEqual({ action: 'accept' });
    expect(seen).toEqual([URL_PARAMS]);
  });

  it.each([
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'http://example.com/login',
    'http://localhost.example.com/login',
    'ftp://example.com/login',
  ])("declines url-mode elicitation to %s on the app's behalf: the handler never sees it", async (url) => {
    const seen: unknown[] = [];
    const warnings: string[] = [];
    const handler: ElicitationHandler = (request) => {
      seen.push(request);
      return { action: 'accept' };
    };
    const { server } = await connected({
      elicitation: { handler, url: true },
      onWarning: (message) => warnings.push(message),
    });
    const response = await server.request('elicitation/create', { ...URL_PARAMS, url });
    expect(response.result).toEqual({ action: 'decline' });
    expect(seen).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('declined a URL-mode elicitation')]);
  });

  it.each([
    'https://example.com/login',
    'http://localhost:3000/callback',
    'http://127.0.0.1:8080/consent',
    'http://[::1]:8080/consent',
    'http://app.localhost:3000/callback',
    'http://localhost.:3000/callback',
    'http://[::ffff:127.0.0.1]:8080/consent',
  ])('passes url-mode elicitation to %s (https:, or http: on loopback) to the handler', async (url) => {
    const seen: string[] = [];
    const handler: ElicitationHandler = (request) => {
      if (request.mode === 'url') seen.push(request.url);
      return { action: 'accept' };
    };
    const { server } = await connected({ elicitation: { handler, url: true } });
    const response = await server.request('elicitation/create', { ...URL_PARAMS, url });
    expect(response.result).toEqual({ action: 'accept' });
    expect(seen).toEqual([url]);
  });

  it('answers roots/list from a roots array', async () => {
    const roots = [{ uri: 'file:///home/ada/project', name: 'project' }, { uri: 'file:///tmp' }];
    const { server } = await connected({ roots });
    const response = await server.request('roots/list');
    expect(response.result).toEqual({ roots });
  });

  it('answers roots/list from a roots function, asked each time', async () => {
    let n = 0;
    const { server } = await connected({ roots: async () => [{ uri: `file:///r${++n}` }] });
    expect((await server.request('roots/list')).result).toEqual({ roots: [{ uri: 'file:///r1' }] });
    expect((await server.request('roots/list')).result).toEqual({ roots: [{ uri: 'file:///r2' }] });
  });

  it('answers ping with {}', async () => {
    const { server } = await connected();
    const response = await server.request('ping');
    expect(response).toEqual({ jsonrpc: '2.0', id: expect.any(String), result: {} });
  });

  it('answers an unknown method with -32601', async () => {
    const { server } = await connected();
    const response = await server.request('tasks/teleport', { to: 'mars' });
    expect(response.error?.code).toBe(-32601);
  });

  it('turns a throwing handler into a JSON-RPC error reply and keeps working', async () => {
    const { client, server } = await connected({
      sampling: () => {
        throw new Error('model unavailable');
      },
    });
    const response = await server.request('sampling/createMessage', SAMPLE_PARAMS);
    expect(response.error).toEqual({ code: -32603, message: 'model unavailable' });

    const pinging = client.ping();
    const ping = await server.expect('ping');
    await server.reply(ping.id, {});
    await pinging;
    expect((await server.request('ping')).result).toEqual({});
  });

  it("replies with an RpcError's own code, message and data when a handler throws one", async () => {
    const { server } = await connected({
      sampling: () => {
        throw new RpcError(-1, 'User rejected sampling request', { by: 'user' });
      },
    });
    const response = await server.request('sampling/createMessage', SAMPLE_PARAMS);
    expect(response.error).toEqual({ code: -1, message: 'User rejected sampling request', data: { by: 'user' } });
  });

  it("aborts the handler's signal when the client closes", async () => {
    const started = deferred<HandlerContext>();
    const { client, server } = await connected({
      sampling: async (_request, context) => {
        started.resolve(context);
        await aborted(context.signal);
        throw context.signal.reason;
      },
    });
    await server.send({ jsonrpc: '2.0', id: 'held', method: 'sampling/createMessage', params: SAMPLE_PARAMS });
    const { signal } = await started.promise;
    expect(signal.aborted).toBe(false);
    await client.close();
    expect(signal.aborted).toBe(true);
    await server.expectEnd();
  });

  it("gives a roots function the request's signal: the server's notifications/cancelled aborts it, and no reply goes", async () => {
    const started = deferred<AbortSignal>();
    const { server } = await connected({
      roots: async ({ signal }) => {
        started.resolve(signal);
        await aborted(signal);
        return [{ uri: 'file:///late' }];
      },
    });
    await server.send({ jsonrpc: '2.0', id: 9, method: 'roots/list' });
    const signal = await started.promise;
    expect(signal.aborted).toBe(false);
    await server.notify('notifications/cancelled', { requestId: 9, reason: 'no longer needed' });
    await aborted(signal);
    await server.assertNoMessage(50);
  });

  it("aborts the handler's signal on the server's notifications/cancelled for that request and sends no reply", async () => {
    const started = deferred<AbortSignal>();
    const { server } = await connected({
      sampling: async (_request, { signal }) => {
        started.resolve(signal);
        await aborted(signal);
        return SAMPLED as Awaited<ReturnType<SamplingHandler>>;
      },
    });
    await server.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: SAMPLE_PARAMS });
    const signal = await started.promise;
    await server.notify('notifications/cancelled', { requestId: 8, reason: 'another request' });
    await sleep(10);
    expect(signal.aborted).toBe(false);
    await server.notify('notifications/cancelled', { requestId: 7, reason: 'user gave up' });
    await aborted(signal);
    await server.assertNoMessage(50);
  });
});

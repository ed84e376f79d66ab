import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../http/serve.mjs';
import { type Message, messageOf, sseEvents } from './http-peer.js';
import {
  modernMessage,
  modernMeta,
  modernPost,
  modernRequest,
  type NotificationParams,
  resultOf,
  firstText as textOf,
} from './modern-peer.js';

let servers: Awaited<ReturnType<typeof startHttpServers>>;
/** `/v2` with a query of its own, so each test gets its own 2026-07-28 hub. */
let v2: (hub: string) => string;

beforeAll(async () => {
  servers = await startHttpServers();
  v2 = (hub) => `${servers.modes}/v2?hub=${hub}`;
});
afterAll(() => servers.close());

describe('/v2 on 2026-07-28: subscriptions/listen', () => {
  it('acknowledges a listen, then streams tools/list_changed and resources/updated caused by other requests', async () => {
    const url = v2('listen&pageSize=50');
    const aborter = new AbortController();
    const filter = { toolsListChanged: true, resourceSubscriptions: ['test://static/text/2'] };
    const listen = await modernPost(
      url,
      'subscriptions/listen',
      { notifications: filter },
      {},
      { signal: aborter.signal },
    );
    expect(listen.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(listen);
    const next = async () => messageOf((await events.next()).value!)!;

    const ack = await next();
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: filter },
    });
    const subscriptionId = (ack.params as NotificationParams)._meta?.['io.modelcontextprotocol/subscriptionId'];

    expect(textOf(await modernRequest(url, 'tools/call', { name: 'add-tool', arguments: {} }))).toBe('added');
    expect(await next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': subscriptionId } },
    });
    await modernRequest(url, 'tools/call', { name: 'touch-resource', arguments: { uri: 'test://static/text/9' } });
    await modernRequest(url, 'tools/call', { name: 'touch-resource', arguments: { uri: 'test://static/text/2' } });
    expect(await next()).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'test://static/text/2' },
    });
    aborter.abort();

    // The hub outlives the request that added the tool: later requests list it.
    const list = await modernRequest(url, 'tools/list');
    expect(
      resultOf(list)
        .tools?.map((tool) => tool.name)
        .slice(-2),
    ).toEqual(['request-counts', 'dynamic-1']);
  });
});

describe('/v2 on 2026-07-28: x-mcp-header', () => {
  const echo = { name: 'header-echo', arguments: { region: 'eu-west', count: 42, dryRun: false } };
  const params = { 'mcp-param-region': 'eu-west', 'mcp-param-count': '42', 'mcp-param-dry-run': 'false' };

  it('echoes the Mcp-Method, Mcp-Name and Mcp-Param-* headers it received, decoding Base64 values', async () => {
    const region = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
    const call = { name: 'header-echo', arguments: { ...echo.arguments, region: 'Zürich' } };
    const echoed = JSON.parse(
      textOf(await modernRequest(v2('headers'), 'tools/call', call, { ...params, 'mcp-param-region': region })),
    );
    expect(echoed.headers).toEqual({
      'mcp-method': 'tools/call',
      'mcp-name': 'header-echo',
      'mcp-protocol-version': '2026-07-28',
      'mcp-param-region': region,
      'mcp-param-count': '42',
      'mcp-param-dry-run': 'false',
    });
    expect(echoed.decoded['mcp-param-region']).toBe('Zürich');
    expect(echoed.arguments).toEqual(call.arguments);
  });

  it('accepts an integer header equal in value, and needs no header for an absent argument', async () => {
    const response = await modernPost(v2('headers'), 'tools/call', echo, { ...params, 'mcp-param-count': '42.0' });
    expect(response.status).toBe(200);
    const bare = { name: 'header-echo', arguments: { region: 'eu' } };
    expect((await modernPost(v2('headers'), 'tools/call', bare, { 'mcp-param-region': 'eu' })).status).toBe(200);
  });

  it.each([
    ['a missing Mcp-Param-Count', { 'mcp-param-count': null }, 'Mcp-Param-Count'],
    ['a wrong Mcp-Param-Region', { 'mcp-param-region': 'us-east' }, 'Mcp-Param-Region'],
    ['a Dry-Run of the wrong value', { 'mcp-param-dry-run': 'true' }, 'Mcp-Param-Dry-Run'],
    ['a broken Base64 value', { 'mcp-param-region': '=?base64?***?=' }, 'Mcp-Param-Region'],
  ])('answers 400 with -32020 HeaderMismatch for %s', async (_case, override, header) => {
    const response = await modernPost(v2('headers'), 'tools/call', echo, { ...params, ...override });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Message;
    expect(body.error).toMatchObject({ code: -32020, data: { mismatch: { header } } });
  });

  it('leaves the Mcp-Name check to the SDK, which also answers 400 with -32020', async () => {
    const response = await modernPost(v2('headers'), 'tools/call', echo, { ...params, 'mcp-name': null });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Message).error).toMatchObject({ code: -32020 });
  });
});

describe('/v2 on 2026-07-28: multi-round-trip across per-request servers', () => {
  it('carries mrtr-rounds through requestState from one request to the next', async () => {
    const url = v2('rounds');
    let round = resultOf(await modernRequest(url, 'tools/call', { name: 'mrtr-rounds', arguments: { rounds: 2 } }));
    for (const answer of ['left', 'right']) {
      const inputResponses = { answer: { action: 'accept', content: { answer } } };
      const retry = { name: 'mrtr-rounds', arguments: { rounds: 2 }, inputResponses, requestState: round.requestState };
      round = resultOf(await modernRequest(url, 'tools/call', retry));
    }
    expect(JSON.parse(round.content?.[0]?.text ?? '')).toEqual(['left', 'right']);
  });

  it('refuses mrtr-multi with 400 and -32021 when the request does not declare roots', async () => {
    const _meta = modernMeta({ elicitation: { form: {} }, sampling: {} });
    const response = await modernPost(v2('rounds'), 'tools/call', { name: 'mrtr-multi', arguments: {}, _meta });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Message).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
  });
});

describe('/v2 on 2026-07-28: cache hints and request counts', () => {
  it('carries ttlMs and cacheScope on tools/list and server/discover', async () => {
    const list = resultOf(await modernRequest(v2('cache'), 'tools/list'));
    expect([list.ttlMs, list.cacheScope]).toEqual([60_000, 'public']);
    const discover = resultOf(await modernRequest(v2('cache'), 'server/discover'));
    expect([discover.ttlMs, discover.cacheScope]).toEqual([300_000, 'public']);
  });

  it('counts every request that reached one URL, per method, and nothing from other URLs', async () => {
    const counts = async (url: string) =>
      JSON.parse(textOf(await modernRequest(url, 'tools/call', { name: 'request-counts', arguments: {} })));
    await modernRequest(v2('counted'), 'tools/list');
    await modernRequest(v2('counted'), 'tools/list');
    await modernRequest(v2('elsewhere'), 'tools/list');
    expect(await counts(v2('counted'))).toEqual({ 'tools/call': 1, 'tools/list': 2 });
    const response = await modernPost(v2('counted'), 'resources/read', { uri: 'test://static/text/1' });
    expect(resultOf(await modernMessage(response)).ttlMs).toBe(60_000);
    expect(await counts(v2('counted'))).toEqual({ 'resources/read': 1, 'tools/call': 2, 'tools/list': 2 });
  });
});

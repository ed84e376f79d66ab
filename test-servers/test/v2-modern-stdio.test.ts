import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModernResult, type NotificationParams, resultOf, firstText as textOf, withMeta } from './modern-peer.js';
import { type Message, spawnStdioServer } from './raw-peer.js';

const ELICIT_ACCEPT = (content: Record<string, unknown>) => ({ action: 'accept', content });
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] };
const SAMPLED = { role: 'assistant', model: 'test', content: { type: 'text', text: 'a summary' } };

describe('v2 reference server on 2026-07-28 over stdio (--sdk v2)', () => {
  let server: ReturnType<typeof spawnStdioServer>;
  const call = (name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    server.peer.request('tools/call', withMeta({ name, arguments: args, ...extra }));

  beforeAll(() => {
    server = spawnStdioServer(['--sdk', 'v2']);
  });
  afterAll(() => server.stop());

  it('lists the modern tools after the eleven shared ones, with their x-mcp-header annotations', async () => {
    const tools: NonNullable<ModernResult['tools']> = [];
    let cursor: string | undefined;
    do {
      const page = resultOf(await server.peer.request('tools/list', withMeta(cursor ? { cursor } : {})));
      tools.push(...(page.tools ?? []));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(tools.slice(11, 20).map((tool) => tool.name)).toEqual([
      'mrtr-multi',
      'mrtr-rounds',
      'mrtr-state-only',
      'header-echo',
      'bad-header-number',
      'bad-header-dup',
      'bad-header-nested',
      'bad-header-token',
      'request-counts',
    ]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('header-echo')?.inputSchema.properties).toMatchObject({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    });
    expect(byName.get('bad-header-number')?.inputSchema.properties?.amount).toEqual({
      type: 'number',
      'x-mcp-header': 'Amount',
    });
    expect(byName.get('bad-header-nested')?.inputSchema.properties?.tags?.items?.['x-mcp-header']).toBe('Tag');
    expect(byName.get('bad-header-token')?.inputSchema.properties?.region?.['x-mcp-header']).toBe('Bad Header');
  });

  it('puts cache hints on discover, lists and reads, per URI for reads', async () => {
    const hint = async (method: string, params: Record<string, unknown> = {}) => {
      const { ttlMs, cacheScope } = resultOf(await server.peer.request(method, withMeta(params)));
      return { ttlMs, cacheScope };
    };
    expect(await hint('server/discover')).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      expect(await hint(method)).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    }
    expect(await hint('resources/read', { uri: 'test://static/text/1' })).toEqual({
      ttlMs: 60_000,
      cacheScope: 'private',
    });
    expect(await hint('resources/read', { uri: 'test://static/binary/1' })).toEqual({
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(await hint('resources/read', { uri: 'test://template/x' })).toEqual({ ttlMs: 250, cacheScope: 'private' });
  });

  it('asks for an elicitation, the roots and a sample in one round of mrtr-multi, and reports every answer', async () => {
    const first = resultOf(await call('mrtr-multi'));
    expect(first.resultType).toBe('input_required');
    expect(first.requestState).toBeUndefined();
    expect(first.inputRequests).toMatchObject({
      'user-name': { method: 'elicitation/create', params: { mode: 'form' } },
      'workspace-roots': { method: 'roots/list' },
      summary: { method: 'sampling/createMessage' },
    });
    const inputResponses = { 'user-name': ELICIT_ACCEPT({ name: 'Ada' }), 'workspace-roots': ROOTS, summary: SAMPLED };
    const final = await call('mrtr-multi', {}, { inputResponses });
    expect(JSON.parse(textOf(final))).toEqual(inputResponses);
  });

  it('asks mrtr-multi again for missing answers only, keeping the given ones in requestState', async () => {
    const partial = resultOf(await call('mrtr-multi', {}, { inputResponses: { 'workspace-roots': ROOTS } }));
    expect(Object.keys(partial.inputRequests ?? {}).sort()).toEqual(['summary', 'user-name']);
    expect(partial.requestState).toEqual(expect.any(String));
    const rest = { 'user-name': ELICIT_ACCEPT({ name: 'Bo' }), summary: SAMPLED };
    const final = await call('mrtr-multi', {}, { inputResponses: rest, requestState: partial.requestState });
    expect(JSON.parse(textOf(final))).toEqual({ ...rest, 'workspace-roots': ROOTS });
  });

  it('runs mrtr-rounds for n rounds on a fresh requestState each time and lists the answers in order', async () => {
    let round = resultOf(await call('mrtr-rounds', { rounds: 3 }));
    const states: string[] = [];
    for (const answer of ['one', 'two', 'three']) {
      expect(round.resultType).toBe('input_required');
      expect(round.inputRequests?.answer?.params?.message).toBe(`Answer ${states.length + 1} of 3`);
      states.push(round.requestState ?? '');
      const inputResponses = { answer: ELICIT_ACCEPT({ answer }) };
      round = resultOf(await call('mrtr-rounds', { rounds: 3 }, { inputResponses, requestState: round.requestState }));
    }
    expect(new Set(states).size).toBe(3);
    expect(JSON.parse(round.content?.[0]?.text ?? '')).toEqual(['one', 'two', 'three']);
  });

  it('ends mrtr-rounds with isError when the requestState comes back altered', async () => {
    const first = resultOf(await call('mrtr-rounds', { rounds: 2 }));
    const state = first.requestState ?? '';
    const altered = `${state.slice(0, 10)}${state[10] === 'A' ? 'B' : 'A'}${state.slice(11)}`;
    const inputResponses = { answer: ELICIT_ACCEPT({ answer: 'x' }) };
    const response = resultOf(await call('mrtr-rounds', { rounds: 2 }, { inputResponses, requestState: altered }));
    expect(response).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('altered') }] });
  });

  it('answers mrtr-state-only first with a requestState alone, then completes on the retry', async () => {
    const first = resultOf(await call('mrtr-state-only'));
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(first.inputRequests).toBeUndefined();
    const final = await call('mrtr-state-only', {}, { requestState: first.requestState });
    expect(textOf(final)).toBe('completed after a state-only round');
  });

  it('needs an elicitation before mrtr-prompt renders, and the roots before test://mrtr/resource reads', async () => {
    const prompt = resultOf(await server.peer.request('prompts/get', withMeta({ name: 'mrtr-prompt' })));
    expect(prompt.inputRequests?.name).toMatchObject({ method: 'elicitation/create' });
    const rendered = await server.peer.request(
      'prompts/get',
      withMeta({ name: 'mrtr-prompt', inputResponses: { name: ELICIT_ACCEPT({ name: 'Cy' }) } }),
    );
    expect(resultOf(rendered).messages?.[0]?.content.text).toBe('Hello, Cy!');

    const resource = resultOf(await server.peer.request('resources/read', withMeta({ uri: 'test://mrtr/resource' })));
    expect(resource).toMatchObject({
      resultType: 'input_required',
      inputRequests: { roots: { method: 'roots/list' } },
    });
    const read = await server.peer.request(
      'resources/read',
      withMeta({ uri: 'test://mrtr/resource', inputResponses: { roots: ROOTS } }),
    );
    expect(JSON.parse(resultOf(read).contents?.[0]?.text ?? '')).toEqual(ROOTS.roots);
  });

  it('acknowledges subscriptions/listen, then sends tools/list_changed and resources/updated tagged with its id', async () => {
    const listenId = 'listen-stdio';
    const filter = { toolsListChanged: true, resourceSubscriptions: ['test://static/text/3'] };
    await server.peer.write({
      jsonrpc: '2.0',
      id: listenId,
      method: 'subscriptions/listen',
      params: withMeta({ notifications: filter }),
    });
    const tagged = (method: string) => (message: Message) =>
      message.method === method &&
      (message.params as NotificationParams | undefined)?._meta?.['io.modelcontextprotocol/subscriptionId'] ===
        listenId;
    const ack = await server.peer.notification(tagged('notifications/subscriptions/acknowledged'));
    expect((ack.params as NotificationParams).notifications).toEqual(filter);

    await call('add-tool');
    await server.peer.notification(tagged('notifications/tools/list_changed'));
    await call('touch-resource', { uri: 'test://static/text/3' });
    const updated = await server.peer.notification(tagged('notifications/resources/updated'));
    expect((updated.params as NotificationParams).uri).toBe('test://static/text/3');
    await server.peer.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: listenId } });
  });

  it('echoes no headers from header-echo over stdio, only the arguments', async () => {
    const echoed = JSON.parse(textOf(await call('header-echo', { region: 'eu', count: 2 })));
    expect(echoed).toEqual({ headers: {}, decoded: {}, arguments: { region: 'eu', count: 2 } });
  });

  it('counts every received method for request-counts, the call itself included', async () => {
    const before = JSON.parse(textOf(await call('request-counts')));
    await server.peer.request('prompts/list', withMeta());
    await server.peer.request('prompts/list', withMeta());
    const after = JSON.parse(textOf(await call('request-counts')));
    expect(after['prompts/list']).toBe((before['prompts/list'] ?? 0) + 2);
    expect(after['tools/call']).toBe(before['tools/call'] + 1);
  });
});

describe('v2 reference server in the 2025 era over stdio', () => {
  it('keeps the documented eleven tools after initialize', async () => {
    const server = spawnStdioServer(['--sdk', 'v2', '--page-size', '50']);
    try {
      await server.peer.initialize();
      const { items } = await server.peer.listAll('tools/list', 'tools');
      expect(items).toHaveLength(11);
    } finally {
      await server.stop();
    }
  });
});

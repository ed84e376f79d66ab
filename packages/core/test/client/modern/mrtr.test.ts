import { describe, expect, it } from 'vitest';
import { type Client, LimitError, RpcError } from '../../../src/index.js';
import {
  exchangeLog,
  hubUrl,
  ROOTS,
  recordingHandlers,
  type TapTransport,
  useClients,
  useHttpServers,
  useStdio,
} from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const spawn = useStdio();

type Opened = { client: Client; tap?: TapTransport };
const transports: { name: string; open: (options: Parameters<typeof open>[1]) => Promise<Opened> }[] = [
  { name: 'HTTP /v2', open: (options) => open(hubUrl(servers.modes, 'mrtr'), options) },
  { name: 'stdio --sdk v2', open: (options) => spawn('v2', options?.client) },
];

describe.each(transports)('MRTR flows complete over $name', (transport) => {
  it('one input per round: elicit, sample and list-roots each complete after one retry', async () => {
    const { asked, options } = recordingHandlers();
    const { client } = await transport.open({ client: options });
    expect(JSON.parse((await client.callTool('elicit')).text)).toEqual({
      action: 'accept',
      content: { name: 'Ada 1' },
    });
    expect((await client.callTool('sample', { prompt: 'p' })).text).toBe('sampled: p');
    expect(JSON.parse((await client.callTool('list-roots')).text)).toEqual(ROOTS);
    expect([asked.elicitation.length, asked.sampling.length, asked.roots]).toEqual([1, 1, 1]);
  });

  it('several inputs in one round (mrtr-multi): every key answered in a single retry', async () => {
    const { asked, options } = recordingHandlers();
    const { client } = await transport.open({ client: options });
    const result = await client.callTool('mrtr-multi');
    expect(JSON.parse(result.text)).toEqual({
      'user-name': { action: 'accept', content: { name: 'Ada 1' } },
      'workspace-roots': { roots: ROOTS },
      summary: {
        role: 'assistant',
        content: { type: 'text', text: 'sampled: Summarise the workspace' },
        model: 'test-model',
      },
    });
    expect([asked.elicitation.length, asked.sampling.length, asked.roots]).toEqual([1, 1, 1]);
  });

  it('several rounds (mrtr-rounds 3): the requestState of each round carries the answers to the end', async () => {
    const { asked, options } = recordingHandlers();
    const { client } = await transport.open({ client: options });
    const result = await client.callTool('mrtr-rounds', { rounds: 3 });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.text)).toEqual(['Ada 1', 'Ada 2', 'Ada 3']);
    expect(asked.elicitation.map((request) => request.message)).toEqual([
      'Answer 1 of 3',
      'Answer 2 of 3',
      'Answer 3 of 3',
    ]);
  });

  it('a state-only round (no inputRequests) is retried with the state and completes', async () => {
    const { asked, options } = recordingHandlers();
    const { client } = await transport.open({ client: options });
    expect((await client.callTool('mrtr-state-only')).text).toBe('completed after a state-only round');
    expect([asked.elicitation.length, asked.sampling.length, asked.roots]).toEqual([0, 0, 0]);
  });

  it('prompts/get and resources/read complete after an input round', async () => {
    const { options } = recordingHandlers();
    const { client } = await transport.open({ client: options });
    const prompt = await client.getPrompt('mrtr-prompt');
    expect(prompt.messages[0]?.content[0]?.text).toBe('Hello, Ada 1!');
    const resource = await client.readResource('test://mrtr/resource');
    expect(resource.contents[0]).toMatchObject({ uri: 'test://mrtr/resource', mimeType: 'application/json' });
    expect(JSON.parse(resource.contents[0]?.text ?? 'null')).toEqual(ROOTS);
  });
});

describe('MRTR on the wire (HTTP /v2)', () => {
  it('each retry is a new request with a new id, inputResponses under the same keys, requestState echoed byte for byte', async () => {
    const log = exchangeLog();
    const { client } = await open(hubUrl(servers.modes, 'mrtr-wire'), {
      client: recordingHandlers().options,
      transport: { fetch: log.fetch },
    });
    await client.callTool('mrtr-rounds', { rounds: 3 });
    await client.callTool('mrtr-multi');
    const calls = log.exchanges.filter((exchange) => exchange.request.method === 'tools/call');
    expect(calls).toHaveLength(4 + 2);
    const ids = log.exchanges.map((exchange) => exchange.request.id);
    expect(new Set(ids).size).toBe(ids.length);

    const rounds = calls.slice(0, 4);
    for (let i = 1; i < rounds.length; i++) {
      const [previous] = await rounds[i - 1]!.answer;
      const asked = (previous?.result ?? {}) as { requestState?: string; inputRequests?: Record<string, unknown> };
      const retry = rounds[i]!.request.params as Record<string, unknown>;
      expect(typeof asked.requestState).toBe('string');
      expect(retry.requestState).toBe(asked.requestState);
      expect(Object.keys(retry.inputResponses as object)).toEqual(Object.keys(asked.inputRequests ?? {}));
      expect(retry.arguments).toEqual({ rounds: 3 });
      expect(rounds[i]!.headers.get('mcp-name')).toBe('mrtr-rounds');
    }
    const [multiFirst, multiRetry] = calls.slice(4);
    expect((multiFirst!.request.params as Record<string, unknown>).inputResponses).toBeUndefined();
    const retryParams = multiRetry!.request.params as Record<string, unknown>;
    expect(Object.keys(retryParams.inputResponses as object).sort()).toEqual([
      'summary',
      'user-name',
      'workspace-roots',
    ]);
    // No requestState came with mrtr-multi's first answer, so none may go back.
    expect('requestState' in retryParams).toBe(false);
  });

  it('the state-only retry carries the requestState and no inputResponses', async () => {
    const log = exchangeLog();
    const { client } = await open(hubUrl(servers.modes, 'mrtr-state'), { transport: { fetch: log.fetch } });
    await client.callTool('mrtr-state-only');
    const [first, retry] = log.exchanges.filter((exchange) => exchange.request.method === 'tools/call');
    const state = ((await first!.answer)[0]?.result as { requestState?: string } | undefined)?.requestState;
    expect(typeof state).toBe('string');
    expect(retry!.request.params).toMatchObject({ requestState: state });
    expect('inputResponses' in (retry!.request.params as object)).toBe(false);
  });

  it('more rounds than limits.maxInputRounds fail with a clear error, without another retry', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'mrtr-limit'), {
      client: { ...recordingHandlers().options, limits: { maxInputRounds: 1 } },
    });
    const error = await client.callTool('mrtr-rounds', { rounds: 3 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRounds', value: 1 });
    expect(calls.filter((call) => call.rpcMethod === 'tools/call')).toHaveLength(2);
    // The client is still usable.
    expect((await client.callTool('echo', { text: 'after' })).text).toBe('after');
  });

  it('without a handler the capability is not declared: the server refuses the input round with -32021, no hang', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'mrtr-nohandler'), {
      client: { elicitation: () => ({ action: 'decline' }), requestTimeout: 3000 },
    });
    for (const [tool, args] of [
      ['sample', { prompt: 'p' }],
      ['list-roots', {}],
    ] as const) {
      const error = await client.callTool(tool, args).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).code).toBe(-32021);
    }
    expect(calls.filter((call) => call.rpcMethod === 'tools/call')).toHaveLength(2);
    // Elicitation was declared: a decline is an answer, and the call completes.
    expect(JSON.parse((await client.callTool('mrtr-rounds', { rounds: 1 })).text)).toEqual(['(decline)']);
  });
});

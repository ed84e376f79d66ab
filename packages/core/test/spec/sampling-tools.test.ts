import { describe, expect, it } from 'vitest';
import type { ClientOptions, SamplingHandler } from '../../src/index.js';
import { ALL_CAPABILITIES, scripted, useScriptedClients } from '../client/harness.js';

useScriptedClients();

const TOOL = { name: 'weather', inputSchema: { type: 'object' } };
const ask = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const use = (id: string) => ({ role: 'assistant', content: { type: 'tool_use', id, name: 'weather', input: {} } });
const result = (toolUseId: string) => ({
  type: 'tool_result',
  toolUseId,
  content: [{ type: 'text', text: 'sunny' }],
});

/** A 2025-11-25 client with a sampling handler that counts its runs; returns the initialize request too. */
async function sampler(sampling: (handler: SamplingHandler) => NonNullable<ClientOptions['sampling']>) {
  let runs = 0;
  const handler: SamplingHandler = () => {
    runs++;
    return { role: 'assistant', content: { type: 'text', text: 'done' }, model: 'm', stopReason: 'endTurn' };
  };
  const pair = scripted({ sampling: sampling(handler) });
  const [, initialize] = await Promise.all([
    pair.client.connect(),
    pair.server.handshake({ capabilities: ALL_CAPABILITIES, protocolVersion: '2025-11-25' }),
  ]);
  return { ...pair, initialize, runs: () => runs };
}

/** Conversations that break the tool-loop rules, each named. */
const BREACHES: [string, unknown[]][] = [
  [
    'a user message mixing a tool_result with text',
    [ask('x'), use('t1'), { role: 'user', content: [result('t1'), { type: 'text', text: 'and' }] }],
  ],
  ['a tool_use left without its tool_result (last message)', [ask('x'), use('t1')]],
  ['a tool_use followed by a message other than its results', [ask('x'), use('t1'), ask('never mind')]],
  ['tool results for another id', [ask('x'), use('t1'), { role: 'user', content: [result('t2')] }]],
  ['a tool_result no tool_use asked for', [ask('x'), { role: 'user', content: [result('t1')] }]],
  ['a tool_result in an assistant message', [ask('x'), { role: 'assistant', content: [result('t1')] }]],
  ['a tool_use answered twice', [ask('x'), use('t1'), { role: 'user', content: [result('t1'), result('t1')] }]],
  [
    'two tool_use blocks of one id',
    [
      ask('x'),
      { role: 'assistant', content: [use('t1').content, use('t1').content] },
      { role: 'user', content: [result('t1')] },
    ],
  ],
];

/** Checklist §8.2 (sampling, 2025-11-25+): tools need `sampling.tools`, and the tool loop keeps its order. */
describe('spec: sampling with tools', () => {
  it.each([
    ['tools', { tools: [TOOL] }],
    ['toolChoice', { toolChoice: { mode: 'auto' } }],
  ])(
    'answers a request with %s -32602 without running the handler when the app did not declare sampling.tools',
    async (_, extra) => {
      const { server, initialize, runs } = await sampler((handler) => handler);
      expect(initialize.params?.capabilities).toHaveProperty('sampling');
      expect((initialize.params?.capabilities as Record<string, unknown> | undefined)?.sampling).toEqual({});
      const response = await server.request('sampling/createMessage', {
        messages: [ask('hi')],
        maxTokens: 10,
        ...extra,
      });
      expect(response.error?.code).toBe(-32602);
      expect(response.error?.message).toContain('sampling.tools');
      expect(runs()).toBe(0);
    },
  );

  it('declares sampling.tools for { handler, tools: true } and hands a request with tools to the handler', async () => {
    const { server, initialize, runs } = await sampler((handler) => ({ handler, tools: true }));
    expect(initialize.params?.capabilities).toHaveProperty('sampling');
    expect((initialize.params?.capabilities as Record<string, unknown> | undefined)?.sampling).toEqual({ tools: {} });
    const messages = [ask('weather?'), use('t1'), { role: 'user', content: [result('t1')] }];
    const response = await server.request('sampling/createMessage', { messages, maxTokens: 10, tools: [TOOL] });
    expect(response.result).toMatchObject({ role: 'assistant', model: 'm' });
    expect(runs()).toBe(1);
  });

  it.each(BREACHES)('answers a tool loop breach (%s) -32602 without running the handler', async (_, messages) => {
    const { server, runs } = await sampler((handler) => ({ handler, tools: true }));
    const response = await server.request('sampling/createMessage', { messages, maxTokens: 10, tools: [TOOL] });
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toContain('tool loop');
    expect(runs()).toBe(0);
  });
});

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterEach, expect, it } from 'vitest';
import { type MockModel, startMockModel } from '../../../test-servers/mock-model/serve.mjs';

// The mock model's wire shapes, read by the real client (@ai-sdk/openai-compatible 2.0.92, ai 6).

let model: MockModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const shout = tool({
  description: 'Upper-cases text',
  inputSchema: jsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  }),
  execute: async ({ text }) => text.toUpperCase(),
});

async function start() {
  model = await startMockModel({
    apiKey: 'secret',
    script: [
      { when: { last: 'user' }, call: [{ tool: 'shout', args: { text: 'quiet words' } }] },
      { when: { last: 'tool' }, reply: 'It said {{tool}}' },
    ],
  });
  return createOpenAICompatible({ name: 'mock', baseURL: model.url, apiKey: 'secret', includeUsage: true })('m1');
}

it('generateText runs a tool loop against it: the tool call parsed, the result sent back, the reply read', async () => {
  const languageModel = await start();
  const result = await generateText({
    model: languageModel,
    prompt: 'please shout',
    tools: { shout },
    stopWhen: stepCountIs(4),
  });
  expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
  expect(result.steps[0]?.toolCalls).toMatchObject([{ toolName: 'shout', input: { text: 'quiet words' } }]);
  expect(result.text).toBe('It said QUIET WORDS');
  expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
  expect(model?.requests.map((request) => request.authorization)).toEqual(['Bearer secret', 'Bearer secret']);
  expect(model?.requests[1]?.body?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'QUIET WORDS' });
});

it('streamText reads the same loop from its event streams', async () => {
  const languageModel = await start();
  const result = streamText({
    model: languageModel,
    prompt: 'please shout',
    tools: { shout },
    stopWhen: stepCountIs(4),
  });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  expect(deltas.length).toBeGreaterThan(1);
  expect(deltas.join('')).toBe('It said QUIET WORDS');
  expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
  expect(model?.requests.every((request) => request.body?.stream === true)).toBe(true);
  expect((await result.totalUsage).outputTokens).toBeGreaterThan(0);
});

it('refuses a POST /mock/script body past maxBodyBytes with 413 and keeps the script it had', async () => {
  model = await startMockModel({ maxBodyBytes: 1_024, script: [{ reply: 'still the first script' }] });
  const big = JSON.stringify([{ reply: 'x'.repeat(2_048) }]);
  const refused = await fetch(`${model.origin}/mock/script`, { method: 'POST', body: big });
  expect(refused.status).toBe(413);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
  const languageModel = createOpenAICompatible({ name: 'mock', baseURL: model.url })('m1');
  expect((await generateText({ model: languageModel, prompt: 'hi' })).text).toBe('still the first script');
  // Under the cap, the same endpoint replaces it.
  const small = await fetch(`${model.origin}/mock/script`, { method: 'POST', body: '[{"reply":"second"}]' });
  expect(small.status).toBe(204);
  expect((await generateText({ model: languageModel, prompt: 'hi' })).text).toBe('second');
});

it('waits delayMs before answering, and refuses a delay past 60,000 ms', async () => {
  model = await startMockModel({ script: [{ delayMs: 300, reply: 'slowly' }] });
  const languageModel = createOpenAICompatible({ name: 'mock', baseURL: model.url })('m1');
  const started = performance.now();
  expect((await generateText({ model: languageModel, prompt: 'hi' })).text).toBe('slowly');
  expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  expect(() => model?.setScript([{ delayMs: 60_001, reply: 'never' }])).toThrow(TypeError);
});

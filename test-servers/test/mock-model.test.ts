import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockModel, type MockScript, startMockModel } from '../mock-model/serve.mjs';

const serveEntry = fileURLToPath(new URL('../mock-model/serve.mjs', import.meta.url));

const echoTool = {
  type: 'function',
  function: {
    name: 'echo',
    description: 'Echoes text',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
};

const script: MockScript = [
  { when: { last: 'user', userSays: 'boom' }, error: { status: 503, message: 'overloaded' } },
  { when: { last: 'user' }, call: [{ tool: 'echo', args: { text: 'hi there' } }] },
  { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' },
];

let model: MockModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const chat = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${model?.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The `data:` payloads of an event-stream body. */
async function events(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

describe('mock model', () => {
  it('calls the scripted tool, then quotes its result (non-streaming)', async () => {
    model = await startMockModel({ script });
    const first = await chat({ model: 'm1', messages: [{ role: 'user', content: 'say hi' }], tools: [echoTool] });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'm1',
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi there"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);

    const second = await chat({
      model: 'm1',
      messages: [
        { role: 'user', content: 'say hi' },
        { role: 'assistant', content: null, tool_calls: body.choices[0].message.tool_calls },
        { role: 'tool', tool_call_id: 'call_1', content: 'hi there' },
      ],
      tools: [echoTool],
    });
    const answer = await second.json();
    expect(answer.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'The tool said: hi there' },
      finish_reason: 'stop',
    });
    expect(answer.choices[0].message.tool_calls).toBeUndefined();
    expect(model.requests.map((request) => request.status)).toEqual([200, 200]);
    expect(model.requests[0]?.body?.tools).toEqual([echoTool]);
    expect(model.requests[1]?.body?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'hi there',
    });
  });

  it('streams the same answers as chunks ending with [DONE], usage only when asked', async () => {
    model = await startMockModel({ script });
    const response = await chat({
      model: 'm1',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'go' }],
      tools: [echoTool],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = await events(response);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((payload) => JSON.parse(payload));
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'm1' });
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toEqual({ index: 0, id: 'call_1', type: 'function', function: { name: 'echo', arguments: '' } });
    expect(calls.map((call) => call.function.arguments).join('')).toBe('{"text":"hi there"}');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });

    const text = await chat({
      model: 'm1',
      stream: true,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: 'call_1', content: 'three word result' },
      ],
    });
    const textChunks = (await events(text)).slice(0, -1).map((payload) => JSON.parse(payload));
    const deltas = textChunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '');
    expect(deltas.filter((delta) => delta !== '').length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The tool said: three word result');
    expect(textChunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(textChunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('refuses a call to a tool the request does not offer, and records the refusal', async () => {
    model = await startMockModel({ script });
    const response = await chat({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "mock-model: tool echo is not in the request's tools (none)",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    expect(model.requests).toMatchObject([{ status: 400, error: expect.stringContaining('tool echo') }]);
  });

  it('answers a scripted error, no matching rule, bad JSON and a missing API key with OpenAI-shaped errors', async () => {
    model = await startMockModel({ script: [{ when: { last: 'tool' }, reply: 'x' }, ...script], apiKey: 'k1' });
    const auth = { authorization: 'Bearer k1' };
    expect((await chat({ model: 'm', messages: [{ role: 'user', content: 'boom' }] }, auth)).status).toBe(503);
    const noKey = await chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error.code).toBe('invalid_api_key');
    const noRule = await chat({ model: 'm', messages: [{ role: 'system', content: 'only system' }] }, auth);
    expect(noRule.status).toBe(400);
    expect((await noRule.json()).error.message).toBe('mock-model: no rule answers a conversation ending with system');
    const notJson = await fetch(`${model.url}/chat/completions`, { method: 'POST', headers: auth, body: '{' });
    expect(notJson.status).toBe(400);
    expect(model.requests.map(({ status, authorization }) => [status, authorization])).toEqual([
      [503, 'Bearer k1'],
      [401, null],
      [400, 'Bearer k1'],
      [400, 'Bearer k1'],
    ]);
  });

  it('refuses a body past maxBodyBytes with 413 and keeps serving', async () => {
    model = await startMockModel({ maxBodyBytes: 1_000 });
    const big = await chat({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(1_001) }] });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe('body_too_large');
    const small = await chat({ model: 'm', messages: [{ role: 'user', content: 'ok' }] });
    expect((await small.json()).choices[0].message.content).toBe('You said: ok');
  });

  it('takes a script over HTTP, rejects an invalid one, and lists and clears its requests', async () => {
    model = await startMockModel();
    const bad = await fetch(`${model.origin}/mock/script`, {
      method: 'POST',
      body: JSON.stringify([{ reply: 'a', call: [] }]),
    });
    expect(bad.status).toBe(400);
    expect(() => model?.setScript([])).toThrow(TypeError);
    const set = await fetch(`${model.origin}/mock/script`, {
      method: 'POST',
      body: JSON.stringify([{ reply: 'fixed' }]),
    });
    expect(set.status).toBe(204);
    expect((await (await chat({ model: 'm', messages: [] })).json()).choices[0].message.content).toBe('fixed');
    const listed = await (await fetch(`${model.origin}/mock/requests`)).json();
    expect(listed).toEqual([
      { path: '/v1/chat/completions', authorization: null, body: { model: 'm', messages: [] }, status: 200 },
    ]);
    expect((await fetch(`${model.origin}/mock/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(model.requests).toEqual([]);
  });

  it('answers a cross-origin preflight and exposes CORS headers on answers', async () => {
    model = await startMockModel();
    const preflight = await fetch(`${model.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-custom',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-custom');
    const answer = await chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { origin: 'http://a.test' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://a.test');
    await answer.body?.cancel();
  });
});

it('serve.mjs takes --script and --api-key, prints its URL, and exits when stdin closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-model-'));
  const scriptFile = join(dir, 'script.json');
  writeFileSync(scriptFile, JSON.stringify([{ reply: 'from file' }]));
  const child = spawn(process.execPath, [serveEntry, '--script', scriptFile, '--api-key', 'k2'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k2' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect((await response.json()).choices[0].message.content).toBe('from file');
  expect((await fetch(`${url}/models`)).status).toBe(200);

  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  const [code] = await exited;
  clearTimeout(timer);
  expect(code).toBe(0);
});

it('serve.mjs exits with code 2 on an invalid script file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-model-'));
  const scriptFile = join(dir, 'script.json');
  writeFileSync(scriptFile, JSON.stringify([{ when: { last: 'nobody' }, reply: 'x' }]));
  const child = spawn(process.execPath, [serveEntry, '--script', scriptFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  expect(code).toBe(2);
  expect(stderr).toContain('mock-model script: 0.when.last');
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';
import {
  type HttpServers,
  initialize,
  rawBridge,
  recordingScenario,
  sdkThroughBridge,
  startHttpServers,
} from './bridge-peers.js';
import { startListenServer } from './listen-server.js';

let servers: HttpServers;
beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers?.close());

type Text = { type: string; text?: string };
const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as Text[]).map((part) => part.text ?? '').join('');

describe.each([
  ['legacy (2025-11-25 sessions, v1 SDK)', '/stateful', 'legacy'],
  ['2026-07-28 (v2 SDK)', '/v2', 'modern'],
] as const)('the official SDK client through mcp bridge to a %s server', (_label, path, era) => {
  const url = () => `${servers.modes}${path}`;

  it('lists and calls tools; an isError result and a remote JSON-RPC error cross unchanged', async () => {
    const { client, transport, stderr } = await sdkThroughBridge([url()]);
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'mcp-reference-server', version: '1.0.0' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
      expect(client.getInstructions()).toContain('Reference server');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.slice(0, 3)).toEqual(['echo', 'add', 'mixed-content']);
      // 2026-07-28: the tools whose x-mcp-header annotations break the rules are left out.
      expect(names.includes('header-echo')).toBe(era === 'modern');
      expect(names.some((name) => name.startsWith('bad-header'))).toBe(false);

      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'over the bridge' } }))).toBe(
        'over the bridge',
      );
      const failed = await client.callTool({ name: 'fail', arguments: { message: 'it broke' } });
      expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] });
      const refusal = await client.callTool({ name: 'no-such-tool' }).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: -32602 });
      expect(String((refusal as Error).message)).toContain('no-such-tool');
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(sum.structuredContent).toEqual({ sum: 5 });
      if (era === 'modern') {
        // The Mcp-Param-* header the server checks came from the tool's x-mcp-header annotation.
        const echoed = JSON.parse(
          textOf(await client.callTool({ name: 'header-echo', arguments: { region: 'eu-1' } })),
        );
        expect(echoed.headers['mcp-param-region']).toBe('eu-1');
      } else {
        const mixed = await client.callTool({ name: 'mixed-content' });
        expect((mixed.content as Text[]).map((part) => part.type)).toEqual([
          'text',
          'image',
          'audio',
          'resource',
          'resource_link',
          'text',
        ]);
      }
    } finally {
      await client.close();
    }
    // The Client's warnings go to stderr, never stdout.
    if (era === 'legacy') expect(stderr()).toBe('');
    else expect(stderr()).toContain('mcp bridge: tools/list: dropped tool "bad-header-number"');
  });

  it("relays progress under the local client's own token", async () => {
    const { client, transport } = await sdkThroughBridge([url()]);
    await client.connect(transport);
    try {
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'slow', arguments: { steps: 3, intervalMs: 50 } }, undefined, {
        onprogress: (progress) => seen.push(progress),
      });
      expect(textOf(result)).toBe('done after 3 steps');
      // The SDK client handles notifications a tick late, so it may drop the last one, sent just before
      // the result (the raw test below sees all of them, in order).
      expect(seen.slice(0, 2)).toEqual([1, 2].map((i) => ({ progress: i, total: 3, message: `step ${i} of 3` })));
    } finally {
      await client.close();
    }
  });

  it("relays the remote server's sampling, elicitation and roots requests to the local client's handlers", async () => {
    const { client, transport } = await sdkThroughBridge([url()], { sampling: {}, elicitation: {}, roots: {} });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
    }));
    const sampled: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampled.push(request.params.messages);
      return { role: 'assistant', model: 'local-model', content: { type: 'text', text: 'sampled locally' } };
    });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.connect(transport);
    try {
      expect(textOf(await client.callTool({ name: 'sample', arguments: { prompt: 'say hi' } }))).toBe(
        'sampled locally',
      );
      expect(sampled).toEqual([[{ role: 'user', content: { type: 'text', text: 'say hi' } }]]);
      const elicited = JSON.parse(textOf(await client.callTool({ name: 'elicit', arguments: {} })));
      expect(elicited).toEqual({ action: 'accept', content: { name: 'Ada' } });
      const roots = JSON.parse(textOf(await client.callTool({ name: 'list-roots', arguments: {} })));
      expect(roots).toEqual([{ uri: 'file:///home/ada/project', name: 'project' }]);
    } finally {
      await client.close();
    }
  });

  it('reads text and binary resources as they came, follows pages, renders prompts and completes', async () => {
    const { client, transport } = await sdkThroughBridge([url()]);
    await client.connect(transport);
    try {
      expect((await client.readResource({ uri: 'test://static/text/2' })).contents).toEqual([
        { uri: 'test://static/text/2', mimeType: 'text/plain', text: 'Resource 2' },
      ]);
      expect((await client.readResource({ uri: 'test://static/binary/1' })).contents).toEqual([
        { uri: 'test://static/binary/1', mimeType: 'application/octet-stream', blob: 'AQIDBAUGBwg=' },
      ]);
      const first = await client.listResources();
      expect(first.resources).toHaveLength(5);
      const second = await client.listResources({ cursor: first.nextCursor as string });
      expect(second.resources[0]?.uri).toBe('test://static/text/6');
      const prompt = await client.getPrompt({ name: 'greeting', arguments: { name: 'Ada' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'name', value: 'a' },
      });
      expect(completion.completion.values).toEqual(['alice', 'alex']);
      const missing = await client.readResource({ uri: 'test://nowhere' }).catch((error: unknown) => error);
      expect(missing).toMatchObject({ code: era === 'modern' ? -32602 : -32002 });
    } finally {
      await client.close();
    }
  });

  it('forwards log messages at the level the local client set, list changes and updates of a subscribed resource', async () => {
    const { client, transport } = await sdkThroughBridge([url()]);
    const logs: unknown[] = [];
    let toolsChanged = 0;
    const updated: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      toolsChanged++;
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    await client.connect(transport);
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'log', arguments: { level: 'info', message: 'too quiet' } });
      await client.callTool({ name: 'log', arguments: { level: 'error', message: 'heard' } });
      await until(() => logs.length > 0);
      expect(logs).toEqual([{ level: 'error', logger: 'reference', data: 'heard' }]);

      await client.subscribeResource({ uri: 'test://static/text/3' });
      await client.callTool({ name: 'touch-resource', arguments: { uri: 'test://static/text/3' } });
      await until(() => updated.length > 0);
      expect(updated).toEqual(['test://static/text/3']);
      await client.unsubscribeResource({ uri: 'test://static/text/3' });

      expect(textOf(await client.callTool({ name: 'add-tool' }))).toBe('added');
      await until(() => toolsChanged > 0);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('dynamic-1');
    } finally {
      await client.close();
    }
  });

  it('stdin EOF closes the remote client and exits 0 at once', async () => {
    const bridge = rawBridge([url(), '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    const started = performance.now();
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    // Nothing the remote session held (a listen stream, the GET stream) keeps the process alive.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe.each([
  ['legacy (2025-11-25 sessions)', 'legacy'],
  ['2026-07-28', 'modern'],
] as const)('a call the local client aborts, %s', (_label, era) => {
  it('is given up on by the remote server too; the next call works', async () => {
    // Legacy: the fault server logs the notifications/cancelled it gets. 2026-07-28 cancels by closing the
    // request's stream, which the listen server sees.
    const listening = era === 'modern' ? await startListenServer() : undefined;
    const recording = era === 'legacy' ? await recordingScenario(servers) : undefined;
    const remote = listening?.url ?? (recording?.mcp as string);
    const { client, transport } = await sdkThroughBridge([remote, '--token-env', 'T'], {}, { T: 'x' });
    await client.connect(transport);
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'slow', arguments: { steps: 200, intervalMs: 20 } }, undefined, {
        signal: controller.signal,
        onprogress: () => controller.abort(new Error('the user gave up')),
      });
      await expect(call).rejects.toThrow('the user gave up');
      const givenUp = async () =>
        listening
          ? listening.callsLeft()
          : (await (recording as Awaited<ReturnType<typeof recordingScenario>>).requests()).filter(
              (request) => request.method === 'notifications/cancelled',
            ).length;
      // Well before the call's 4 s are over.
      while ((await givenUp()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await givenUp()).toBe(1);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
    } finally {
      await client.close();
      await listening?.close();
    }
  });
});

describe('mcp bridge against a recording server (legacy sessions)', () => {
  it('sends --header and the --token-env bearer token on every request, and DELETEs the session at stdin EOF', async () => {
    const scenario = await recordingScenario(servers);
    const bridge = rawBridge([scenario.mcp, '--header', 'X-Team: blue', '--token-env', 'REMOTE_TOKEN'], {
      REMOTE_TOKEN: 'sekrit-123',
    });
    bridge.send(initialize(1));
    expect(await bridge.answer(1)).toMatchObject({ result: { serverInfo: { name: 'mcp-reference-server' } } });
    bridge.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mixed-content' } });
    // Content crosses verbatim, a field no revision defines included.
    const parts = ((await bridge.answer(2)).result as { content: Record<string, unknown>[] }).content;
    expect(parts.map((part) => part.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link', 'text']);
    expect(parts[2]?.unknownExtra).toEqual({ note: 'not in any MCP revision' });
    expect(parts[0]?.annotations).toEqual({ audience: ['user'], priority: 0.5 });
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    const requests = await scenario.requests();
    expect(requests.map((request) => request.method ?? request.httpMethod)).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/call', 'DELETE']),
    );
    for (const request of requests) {
      expect(request.headers['x-team']).toBe('blue');
      expect(request.headers.authorization).toBe('Bearer sekrit-123');
    }
    expect(bridge.stderr()).toBe('');
  });

  it('SIGTERM ends the remote session too (DELETE) and exits 130', async () => {
    const scenario = await recordingScenario(servers);
    const bridge = rawBridge([scenario.mcp, '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    bridge.child.kill('SIGTERM');
    expect(await bridge.exited).toBe(130);
    expect((await scenario.requests()).map((request) => request.httpMethod)).toContain('DELETE');
  });

  it("a local notifications/cancelled reaches the remote server as the client's own cancellation", async () => {
    const scenario = await recordingScenario(servers);
    const bridge = rawBridge([scenario.mcp, '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    const slow = { name: 'slow', arguments: { steps: 500, intervalMs: 20 }, _meta: { progressToken: 'tok' } };
    bridge.send({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: slow });
    await bridge.until(() => bridge.messages().some((message) => message.method === 'notifications/progress'));
    expect(bridge.messages().find((message) => message.method === 'notifications/progress')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1, total: 500, message: 'step 1 of 500' },
    });
    bridge.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'call-1', reason: 'enough' },
    });
    let cancelled: readonly unknown[] = [];
    while (cancelled.length === 0) {
      cancelled = (await scenario.requests()).filter((request) => request.method === 'notifications/cancelled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    bridge.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await bridge.answer(3);
    // A cancelled request gets no answer (2025-11-25, utilities/cancellation).
    expect(bridge.messages().some((message) => message.id === 'call-1')).toBe(false);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
  });
});

describe('mcp bridge and a local client that never answers', () => {
  it('gives up a relayed roots/list after --timeout: the local client is sent notifications/cancelled for it', async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--token-env', 'T', '--timeout', '800'], { T: 'x' });
    bridge.send(initialize(1, { roots: { listChanged: true } }));
    await bridge.answer(1);
    bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list-roots' } });
    const asked = () => bridge.messages().find((message) => message.method === 'roots/list');
    await bridge.until(() => asked() !== undefined);
    const cancelled = () =>
      bridge
        .messages()
        .find(
          (message) =>
            message.method === 'notifications/cancelled' &&
            (message.params as { requestId?: unknown }).requestId === asked()?.id,
        );
    await bridge.until(() => cancelled() !== undefined);
    expect(cancelled()?.params).toMatchObject({
      reason: expect.stringContaining('did not answer roots/list within 800 ms'),
    });
    await bridge.answer(2);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
  });
});

describe('mcp bridge and URL-mode elicitation (2025-11-25)', () => {
  it("runs a -32042 refusal's URL flow through the local client's handler, then the call goes through", async () => {
    const { client, transport } = await sdkThroughBridge([`${servers.modes}/stateful?profile=url-elicitation`], {
      elicitation: { form: {}, url: {} },
    });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept' };
    });
    await client.connect(transport);
    try {
      const elicitation = {
        mode: 'url',
        elicitationId: 'sign-in-1',
        url: 'https://auth.example/start',
        message: 'Sign in to continue',
      };
      const result = await client.callTool({
        name: 'url-required',
        arguments: { key: `bridge-${Date.now()}`, refusals: 1, elicitations: [elicitation] },
      });
      expect(textOf(result)).toBe('calls: 2');
      expect(asked).toEqual([elicitation]);
    } finally {
      await client.close();
    }
  });
});

describe('mcp bridge and what the local client did not declare', () => {
  it('refuses sampling for a local client without the capability: the remote server sees the refusal', async () => {
    const { client, transport } = await sdkThroughBridge([`${servers.modes}/stateful`]);
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'sample', arguments: { prompt: 'hi' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('sampling is not supported');
    } finally {
      await client.close();
    }
  });
});

describe('mcp bridge with bad input on stdin', () => {
  it('answers a non-JSON line, a non-JSON-RPC message, an unknown method and a request before initialize; drops an oversize line; other calls keep working', async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--max-line-bytes', '4096', '--token-env', 'T'], { T: 'x' });
    bridge.send({ jsonrpc: '2.0', id: 'early', method: 'tools/list' });
    expect(await bridge.answer('early')).toMatchObject({ error: { code: -32600 } });
    bridge.send(initialize(1));
    await bridge.answer(1);
    bridge.send('this is not json');
    bridge.send(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"${'x'.repeat(10_000)}"}}}`,
    );
    bridge.send({ id: 'no-version', method: 'ping' });
    bridge.send({ jsonrpc: '2.0', id: 'unknown', method: 'tools/explode' });
    bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'fine' } } });
    expect(await bridge.answer(2)).toMatchObject({ result: { content: [{ type: 'text', text: 'fine' }] } });
    expect(await bridge.answer('unknown')).toMatchObject({
      error: { code: -32601, message: 'Method not found: tools/explode' },
    });
    expect(await bridge.answer('no-version')).toMatchObject({ error: { code: -32600 } });
    expect(bridge.messages()).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON' },
    });
    expect(bridge.messages().some((message) => message.id === 'big')).toBe(false);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    expect(bridge.stderr()).toContain(
      'mcp bridge: stdin: a line that is not JSON was answered with a parse error: this is not json',
    );
    expect(bridge.stderr()).toContain('mcp bridge: dropped a line on stdin longer than 4096 bytes (--max-line-bytes)');
  });

  it('forwards a request whose id is a string or an integer of any size; a fractional id makes it an invalid request', async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    bridge.send({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' });
    bridge.send('{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list"}');
    bridge.send({ jsonrpc: '2.0', id: 'after', method: 'tools/list' });
    expect(await bridge.answer(JSON.parse('123456789012345678901234567890'))).toHaveProperty('result.tools');
    expect(await bridge.answer('after')).toHaveProperty('result.tools');
    expect(bridge.messages().some((message) => message.id === 1.5)).toBe(false);
    expect(bridge.messages()).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid request' },
    });
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    expect(bridge.stderr()).toContain(
      'mcp bridge: stdin: neither a request, a notification nor a response: {"jsonrpc":"2.0","id":1.5',
    );
  });

  it('names an answer to no request of its own on stderr with its id cut short, however long the id', async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    bridge.send({ jsonrpc: '2.0', id: 'x'.repeat(1_000_000), result: {} });
    bridge.send({ jsonrpc: '2.0', id: 'after', method: 'tools/list' });
    expect(await bridge.answer('after')).toHaveProperty('result.tools');
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    const line = bridge
      .stderr()
      .split('\n')
      .find((text) => text.includes('an answer to no request of ours'));
    expect(line).toBeDefined();
    expect(line?.length).toBeLessThan(1000);
  });

  it('refuses requests past --max-in-flight at once, and takes more once one is answered', async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--max-in-flight', '2', '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    const slow = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'slow', arguments: { steps: 2, intervalMs: 150 } },
    });
    bridge.send(slow(2));
    bridge.send(slow(3));
    bridge.send(slow(4));
    expect(await bridge.answer(4)).toMatchObject({
      error: { code: -32603, data: { limit: 'maxInFlight', value: 2 } },
    });
    expect(await bridge.answer(2)).toMatchObject({ result: { content: [{ text: 'done after 2 steps' }] } });
    await bridge.answer(3);
    bridge.send(slow(5));
    expect(await bridge.answer(5)).toMatchObject({ result: { content: [{ text: 'done after 2 steps' }] } });
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
  });

  it("answers with the bridge's own error when the remote takes past --timeout, naming the error class", async () => {
    const bridge = rawBridge([`${servers.modes}/stateful`, '--timeout', '500', '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    await bridge.answer(1);
    const params = { name: 'slow', arguments: { steps: 1, intervalMs: 3000 } };
    bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params });
    const answer = await bridge.answer(2);
    expect(answer).toMatchObject({ error: { code: -32603, data: { error: 'TimeoutError' } } });
    expect((answer.error as { message: string }).message).toMatch(/^bridge: .*tools\/call.*500 ms/);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
  });

  it('answers initialize with the failure when the remote cannot be reached, and still exits 0 at EOF', async () => {
    const bridge = rawBridge([servers.refused, '--token-env', 'T'], { T: 'x' });
    bridge.send(initialize(1));
    const answer = await bridge.answer(1);
    expect(answer).toMatchObject({ error: { code: -32603 } });
    expect(String((answer.error as { message: string }).message)).toMatch(/^bridge: /);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(0);
    expect(bridge.stderr()).toContain(`mcp bridge: could not connect to ${new URL(servers.refused).href}`);
  });
});

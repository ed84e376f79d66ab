import {
  CapabilityError,
  type Client,
  ClientClosedError,
  ErrorCode,
  McpError,
  mcpTools,
  ProtocolError,
  ResourceNotFoundError,
  RpcError,
  ToolError,
  TransportError,
} from '@mcp/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error test-servers is plain JS without declarations
import { REFERENCE_TOOL_NAMES } from '../../../test-servers/reference/fixtures.mjs';
import { type ReferenceConnection, sleep, spawnReference } from './reference-server.js';

// The Client of @mcp/core against the reference server built on the official
// SDK, over a real child process: the behaviours of the issue, one test each.

const open: Client[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);

function connectTo(flags: string[] = [], options: Parameters<typeof spawnReference>[1] = {}): ReferenceConnection {
  const connection = spawnReference(flags, options);
  open.push(connection.client);
  return connection;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  expect(unhandled).toEqual([]);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('a connected client (shared server)', () => {
  let shared: ReferenceConnection;
  beforeAll(async () => {
    shared = spawnReference();
    await shared.client.connect();
  });
  afterAll(() => shared.client.close());

  it('negotiates 2025-11-25 and exposes the server identity', () => {
    const { client } = shared;
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.era).toBe('legacy');
    expect(client.serverInfo).toMatchObject({ name: 'mcp-reference-server', version: '1.0.0' });
    expect(client.serverCapabilities?.resources).toMatchObject({ subscribe: true });
    expect(client.instructions).toContain('Reference server');
  });

  it('follows nextCursor across every page of each list', async () => {
    const { client } = shared;
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(REFERENCE_TOOL_NAMES);
    const resources = await client.listResources();
    expect(resources).toHaveLength(12);
    // The server's trace (stderr) may trail its answers (stdout): wait for all three pages' lines.
    const lists = () => shared.received().filter((message) => message.method === 'resources/list');
    await vi.waitFor(() => expect(lists()).toHaveLength(3));
    expect(lists().map((message) => message.params?.cursor === undefined)).toEqual([true, false, false]);
    expect(await client.listResourceTemplates()).toEqual([
      expect.objectContaining({ uriTemplate: 'test://template/{id}', name: 'item' }),
    ]);
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['greeting', 'with-resource']);
  });

  it('keeps every content kind verbatim and in wire order', async () => {
    const result = await shared.client.callTool('mixed-content');
    expect(result.content.map((part) => part.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
      'text',
    ]);
    expect(result.text).toBe('firstlast');
    expect(result.content[0]).toHaveProperty('annotations');
    expect(result.content[2]).toHaveProperty('unknownExtra');
    expect(result.isError).toBe(false);
  });

  it('sends {} when callTool args are omitted and returns structured content', async () => {
    const calls = () => shared.received().filter((message) => message.method === 'tools/call');
    const before = calls().length;
    await shared.client.callTool('mixed-content');
    await vi.waitFor(() => expect(calls().length).toBeGreaterThan(before));
    const call = calls().at(-1);
    expect(call?.params?.arguments).toEqual({});
    const added = await shared.client.callTool('add', { a: 2, b: 3 });
    expect(added.structuredContent).toEqual({ sum: 5 });
    expect(added.text).toBe('5');
  });

  it('reports a tool failure as isError, not as a throw', async () => {
    const result = await shared.client.callTool('fail', { message: 'nope' });
    expect(result).toMatchObject({ isError: true, text: 'nope' });
  });

  it('decodes a base64 blob resource to its exact bytes', async () => {
    const { contents } = await shared.client.readResource('test://static/binary/3');
    expect(contents[0]?.blob).toEqual(new Uint8Array([3, 4, 5, 6, 7, 8, 9, 10]));
    expect(contents[0]?.text).toBeUndefined();
    const text = await shared.client.readResource('test://static/text/2');
    expect(text.contents[0]).toMatchObject({ uri: 'test://static/text/2', text: 'Resource 2' });
  });

  it('turns a server error into an RpcError with its code; a missing resource is a ResourceNotFoundError caused by it', async () => {
    const error = await shared.client.readResource('test://nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ code: ErrorCode.ResourceNotFound, uri: 'test://nowhere' });
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(RpcError);
    expect(cause).not.toBeInstanceOf(ResourceNotFoundError);
    expect(cause).toMatchObject({ code: ErrorCode.ResourceNotFound, rpcMessage: (error as RpcError).rpcMessage });
  });

  it('flattens prompt parts and decodes their binary data', async () => {
    const prompt = await shared.client.getPrompt('with-resource');
    const parts = prompt.messages.flatMap((message) => message.content);
    expect(parts.map((part) => part.type)).toEqual(['resource', 'image', 'text']);
    expect(parts[0]?.resource?.text).toBeTypeOf('string');
    // A PNG starts with its 8-byte signature.
    expect([...(parts[1]?.data ?? []).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const greeting = await shared.client.getPrompt('greeting', { name: 'Ada' });
    expect(greeting.messages[0]?.content[0]?.text).toBe('Hello, Ada!');
  });

  it('completes prompt arguments by prefix', async () => {
    const completion = await shared.client.complete({
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'name', value: 'al' },
    });
    expect(completion.values).toEqual(['alice', 'alex']);
    expect(completion.hasMore).toBe(false);
  });

  it('adapts tools for AI loops and throws ToolError on a failed call', async () => {
    const tools = await mcpTools(shared.client);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect((await echo?.execute({ text: 'hi' }))?.text).toBe('hi');
    const fail = tools.find((tool) => tool.name === 'fail');
    const error = await fail?.execute({ message: 'bad' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).result.isError).toBe(true);
  });
});

describe('capability gating', () => {
  it('rejects gated methods with CapabilityError and sends nothing', async () => {
    const server = connectTo(['--profile', 'minimal']);
    await server.client.connect();
    const attempts = [
      server.client.listResources(),
      server.client.listResourceTemplates(),
      server.client.readResource('test://static/text/1'),
      server.client.listPrompts(),
      server.client.getPrompt('greeting'),
      server.client.complete({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'name', value: 'a' } }),
      server.client.setLoggingLevel('debug'),
      server.client.subscribeResource('test://static/text/1'),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(CapabilityError);
    // A ping travels the same pipe: once it arrived, anything sent before it has too. The server traces
    // what it received on stderr, which may trail its answer on stdout, so wait for the ping's line.
    await server.client.ping();
    await server.waitForReceived((message) => message.method === 'ping');
    const methods = server.received().map((message) => message.method);
    // The 2026-07-28 probe comes first; the legacy server refuses it and the handshake follows.
    expect(methods).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'ping']);
  });
});

describe('server requests', () => {
  it('answers sampling with the handler, and MethodNotFound (-32601) without one', async () => {
    const withHandler = connectTo([], {
      sampling: async (request) => ({
        role: 'assistant',
        content: { type: 'text', text: `sampled ${request.messages.length}` },
        model: 'test-model',
      }),
    });
    await withHandler.client.connect();
    expect((await withHandler.client.callTool('sample', { prompt: 'hi' })).text).toBe('sampled 1');

    const without = connectTo();
    await without.client.connect();
    const refused = await without.client.callTool('sample', { prompt: 'hi' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(String(ErrorCode.MethodNotFound));
  });

  it('answers elicitation with the handler, and declines without one', async () => {
    const withHandler = connectTo([], { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await withHandler.client.connect();
    const accepted = await withHandler.client.callTool('elicit');
    expect(JSON.parse(accepted.text)).toEqual({ action: 'accept', content: { name: 'Ada' } });

    const without = connectTo();
    await without.client.connect();
    expect(JSON.parse((await without.client.callTool('elicit')).text)).toMatchObject({ action: 'decline' });
  });

  it('answers roots/list with the roots given, as an array or a function', async () => {
    const roots = [{ uri: 'file:///work', name: 'work' }];
    const withArray = connectTo([], { roots });
    await withArray.client.connect();
    expect(JSON.parse((await withArray.client.callTool('list-roots')).text)).toEqual(roots);

    const withFunction = connectTo([], { roots: async () => [{ uri: 'file:///tmp' }] });
    await withFunction.client.connect();
    expect(JSON.parse((await withFunction.client.callTool('list-roots')).text)).toEqual([{ uri: 'file:///tmp' }]);

    const without = connectTo();
    await without.client.connect();
    expect((await without.client.callTool('list-roots')).isError).toBe(true);
  });

  it('refuses a server request when every dispatch slot is busy, and keeps reading', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const server = connectTo([], {
      limits: { maxConcurrentHandlers: 1 },
      elicitation: async () => {
        started++;
        await released;
        return { action: 'accept', content: { name: 'first' } };
      },
    });
    await server.client.connect();
    const first = server.client.callTool('elicit');
    while (started === 0) await sleep(5);
    // The only slot is held: the second elicitation is refused at once...
    const second = await server.client.callTool('elicit');
    expect(second.isError).toBe(true);
    expect(second.text).toContain('busy');
    // ...and ordinary responses still flow while the handler is blocked.
    expect((await server.client.callTool('echo', { text: 'still reading' })).text).toBe('still reading');
    release();
    expect(JSON.parse((await first).text)).toMatchObject({ action: 'accept' });
    expect(started).toBe(1);
  });
});

describe('notifications', () => {
  it('delivers resource updates, log messages and list changes to onNotification', async () => {
    const seen: string[] = [];
    const server = connectTo([], { onNotification: (method) => seen.push(method) });
    await server.client.connect();
    await server.client.subscribeResource('test://static/text/1');
    await server.client.callTool('touch-resource', { uri: 'test://static/text/1' });
    await server.client.setLoggingLevel('debug');
    await server.client.callTool('log', { level: 'info', message: 'hello' });
    await server.client.callTool('add-tool');
    await server.client.unsubscribeResource('test://static/text/1');
    await server.client.ping();
    expect(seen).toEqual(
      expect.arrayContaining([
        'notifications/resources/updated',
        'notifications/message',
        'notifications/tools/list_changed',
      ]),
    );
  });
});

describe('timeouts, abort and progress', () => {
  it('rejects with TimeoutError and sends notifications/cancelled on timeout', async () => {
    const server = connectTo();
    await server.client.connect();
    const error = await server.client
      .callTool('slow', { steps: 5, intervalMs: 200 }, { timeout: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    await server.waitForReceived((message) => message.method === 'tools/call');
    const call = server.received().find((message) => message.method === 'tools/call');
    await server.waitForReceived(
      (message) => message.method === 'notifications/cancelled' && message.params?.requestId === call?.id,
    );
  });

  it('rejects with AbortError and sends notifications/cancelled on abort', async () => {
    const server = connectTo();
    await server.client.connect();
    const controller = new AbortController();
    const pending = server.client.callTool('slow', { steps: 5, intervalMs: 200 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('AbortError');
    await server.waitForReceived((message) => message.method === 'notifications/cancelled');
  });

  it('restarts the timeout on every progress notification', async () => {
    const server = connectTo();
    await server.client.connect();
    const progress: number[] = [];
    const result = await server.client.callTool(
      'slow',
      // 1.8 s in all against a 1 s timeout: only the restarts let it finish, and each 300 ms gap
      // leaves 700 ms for a loaded machine.
      { steps: 6, intervalMs: 300 },
      { timeout: 1000, onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.text).toBe('done after 6 steps');
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('a misbehaving server', () => {
  it('fails pending calls with a TransportError naming the exit code when the server crashes', async () => {
    const server = connectTo(['--exit-on-call', 'echo']);
    await server.client.connect();
    const error = await server.client.callTool('echo', { text: 'boom' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/exited with code 3/);
    await expect(server.client.ping()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('reports garbage lines on stdout and keeps working', async () => {
    const reported: Error[] = [];
    const server = connectTo(['--noise'], { onError: (error) => reported.push(error) });
    await server.client.connect();
    expect((await server.client.callTool('echo', { text: 'fine' })).text).toBe('fine');
    expect(reported.length).toBeGreaterThanOrEqual(2);
    expect(reported.every((error) => error instanceof ProtocolError)).toBe(true);
  });

  it('returns from close() within the grace when a handler ignores its signal', async () => {
    let entered = false;
    const server = connectTo([], {
      limits: { closeGrace: 200 },
      elicitation: () => {
        entered = true;
        return new Promise(() => {}); // never settles, ignores the signal
      },
    });
    await server.client.connect();
    const pending = server.client.callTool('elicit').catch((e: unknown) => e);
    while (!entered) await sleep(5);
    const started = Date.now();
    await server.client.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await pending).toBeInstanceOf(ClientClosedError);
    expect(server.transport.exitStatus).toBeDefined();
  });

  it('names the command when the server cannot start', async () => {
    const { StdioTransport } = await import('@mcp/node-stdio');
    const { Client } = await import('@mcp/core');
    const client = new Client(new StdioTransport({ command: 'definitely-not-an-mcp-server' }));
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as Error).message).toContain('definitely-not-an-mcp-server');
  });
});

describe('the v2 server SDK (dual-era)', () => {
  it('is detected as a 2026-07-28 server and used statelessly', async () => {
    const server = connectTo(['--sdk', 'v2']);
    await server.client.connect();
    expect(server.client.era).toBe('modern');
    expect(server.client.protocolVersion).toBe('2026-07-28');
    expect((await server.client.callTool('echo', { text: 'v2' })).text).toBe('v2');
  });

  it('serves the legacy era when the version is pinned', async () => {
    const server = connectTo(['--sdk', 'v2'], { protocolVersion: '2025-11-25' });
    await server.client.connect();
    expect(server.client.era).toBe('legacy');
    expect(server.client.protocolVersion).toBe('2025-11-25');
    expect((await server.client.callTool('echo', { text: 'v2' })).text).toBe('v2');
    const names = (await server.client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'mixed-content']));
  });
});

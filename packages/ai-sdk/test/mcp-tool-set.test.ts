import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client, LimitError, McpError, StreamableHttpTransport, ToolError } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
// @ts-expect-error test-servers/ is plain JS without declarations
import { PNG_BASE64, REFERENCE_TOOL_NAMES, WAV_BASE64 } from '../../../test-servers/reference/fixtures.mjs';
import { mcpToolSet, watchMcpToolSet } from '../src/index.js';
import { type ReferencePeer, referencePeer } from './reference-peer.js';
import { aiMajor, loopModes, mediaPart, runLoop, scriptedModel, toolResultsIn } from './scripted-model.js';

// A real AI SDK loop (its mock model, scripted) over the reference server of
// test-servers/ (the official SDK), in both generateText and streamText. The
// same file runs against ai 7 (test/ai7/vitest.config.ts).

const peers: ReferencePeer[] = [];
async function peer(): Promise<ReferencePeer> {
  const started = await referencePeer();
  peers.push(started);
  return started;
}

/** AI SDK warnings (deprecations included), which it reports through this global instead of the console. */
let warnings: unknown[] = [];
beforeEach(() => {
  warnings = [];
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => {
    warnings.push(...options.warnings);
  };
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((started) => started.close()));
});

/** The `tools/call` requests the server received, as `[name, arguments]`. */
function callsReceived({ received }: ReferencePeer): [unknown, unknown][] {
  return received
    .filter((message) => 'method' in message && message.method === 'tools/call')
    .map((message) => {
      const params = (message as unknown as { params: { name: unknown; arguments: unknown } }).params;
      return [params.name, params.arguments];
    });
}

describe.each(loopModes)(`mcpToolSet in a %s loop (ai ${aiMajor})`, (mode) => {
  it('offers every listed tool with its input schema verbatim', async () => {
    const { client } = await peer();
    const tools = await mcpToolSet(client);
    expect(Object.keys(tools)).toEqual(REFERENCE_TOOL_NAMES);
    const listed = await client.listTools();
    const echo = listed.find((tool) => tool.name === 'echo');
    const schema = await (tools.echo?.inputSchema as { jsonSchema: unknown } | undefined)?.jsonSchema;
    expect(schema).toEqual(echo?.inputSchema);
    expect(tools.echo?.description).toBe(echo?.description);
    expect(tools['mixed-content']?.title).toBe('Mixed content');
  });

  it("sends the model's tool call to the server and its result into the model's next step", async () => {
    const started = await peer();
    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'echo', input: { text: 'hello' } }] }]);
    const result = await runLoop(mode, model, await mcpToolSet(started.client));

    expect(callsReceived(started)).toEqual([['echo', { text: 'hello' }]]);
    expect(toolResultsIn(prompts[1])).toEqual([
      { toolName: 'echo', output: { type: 'content', value: [{ type: 'text', text: 'hello' }] } },
    ]);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('done');
  });

  it('makes an isError result a failed tool call whose message the model reads', async () => {
    const started = await peer();
    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'fail', input: { message: 'disk full' } }] }]);
    const result = await runLoop(mode, model, await mcpToolSet(started.client));

    const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(failure?.error).toBeInstanceOf(ToolError);
    expect((failure?.error as ToolError | undefined)?.result).toMatchObject({ isError: true, text: 'disk full' });
    expect(toolResultsIn(prompts[1])).toEqual([
      // ai 7 puts the error's name in front of its message.
      {
        toolName: 'fail',
        output: { type: 'error-text', value: `${aiMajor === 7 ? 'ToolError: ' : ''}tool fail failed: disk full` },
      },
    ]);
    expect(result.text).toBe('done');
  });

  it('cancels the call on the server when the loop is aborted', async () => {
    const started = await peer();
    const controller = new AbortController();
    const tools = await mcpToolSet(started.client, {
      callOptions: { onProgress: () => controller.abort(new Error('user stopped')) },
    });
    const { model } = scriptedModel([{ calls: [{ toolName: 'slow', input: { steps: 1000, intervalMs: 10 } }] }]);

    await expect(runLoop(mode, model, tools, { abortSignal: controller.signal })).rejects.toThrow();
    const call = started.received.find((message) => 'method' in message && message.method === 'tools/call');
    await vi.waitFor(() =>
      expect(started.received).toContainEqual(
        expect.objectContaining({
          method: 'notifications/cancelled',
          params: expect.objectContaining({ requestId: (call as { id: unknown }).id }),
        }),
      ),
    );
  });

  it('gives the model images and audio as media, the other parts as text', async () => {
    const { client } = await peer();
    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'mixed-content', input: {} }] }]);
    await runLoop(mode, model, await mcpToolSet(client));

    const [seen] = toolResultsIn(prompts[1]);
    expect(seen?.output.type).toBe('content');
    const parts = seen?.output.value as unknown[];
    expect(parts).toHaveLength(6);
    expect(parts[0]).toEqual({ type: 'text', text: 'first' });
    expect(parts[1]).toEqual(mediaPart(PNG_BASE64, 'image/png'));
    expect(parts[2]).toEqual(mediaPart(WAV_BASE64, 'audio/wav'));
    expect(parts[3]).toEqual({ type: 'text', text: 'Resource 1' });
    expect(parts[4]).toEqual({
      type: 'text',
      text: '[resource link: binary-1 test://static/binary/1 (application/octet-stream)]',
    });
    expect(parts[5]).toEqual({ type: 'text', text: 'last' });
    // In the installed version's own shape: ai 7 warns about the ai 6 media parts.
    expect(warnings).toEqual([]);
  });

  it('gives the model structuredContent as JSON output', async () => {
    const started = await peer();
    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }]);
    const result = await runLoop(mode, model, await mcpToolSet(started.client));

    expect(toolResultsIn(prompts[1])).toEqual([{ toolName: 'add', output: { type: 'json', value: { sum: 5 } } }]);
    const output = result.steps[0]?.content.find((part) => part.type === 'tool-result')?.output;
    expect(output).toMatchObject({ structuredContent: { sum: 5 }, text: '5', isError: false });
  });

  it('passes callOptions to each call: its timeout fails the call, cancels it, and the model reads why', async () => {
    const started = await peer();
    const tools = await mcpToolSet(started.client, { callOptions: { timeout: 100 } });
    const { model, prompts } = scriptedModel([
      { calls: [{ toolName: 'slow', input: { steps: 100, intervalMs: 50 } }] },
    ]);
    const result = await runLoop(mode, model, tools);

    const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect((failure?.error as Error | undefined)?.name).toBe('TimeoutError');
    expect(toolResultsIn(prompts[1])[0]?.output).toMatchObject({
      type: 'error-text',
      value: expect.stringContaining('timed out after 100 ms'),
    });
    expect(started.received).toContainEqual(expect.objectContaining({ method: 'notifications/cancelled' }));
  });

  it('makes call options for each call from a function, so progress reaches the call it belongs to', async () => {
    const started = await peer();
    const progress = new Map<string, number[]>();
    const tools = await mcpToolSet(started.client, {
      callOptions: ({ toolCallId, name, mcp }) => ({
        onProgress: ({ progress: step }) => {
          const key = `${toolCallId} ${name} ${mcp.server}/${mcp.tool}`;
          progress.set(key, [...(progress.get(key) ?? []), step]);
        },
      }),
    });
    const { model } = scriptedModel([
      {
        calls: [
          { toolName: 'slow', input: { steps: 2, intervalMs: 5 } },
          { toolName: 'slow', input: { steps: 3, intervalMs: 5 } },
        ],
      },
    ]);
    await runLoop(mode, model, tools);
    expect(Object.fromEntries(progress)).toEqual({
      'call-1-0 slow s0/slow': [1, 2],
      'call-1-1 slow s0/slow': [1, 2, 3],
    });
  });

  it('prefixes names two servers share with each record key, and calls the right server', async () => {
    const [first, second] = [await peer(), await peer()];
    const tools = await mcpToolSet({ alpha: first.client, beta: second.client });
    expect(Object.keys(tools)).toEqual([
      ...REFERENCE_TOOL_NAMES.map((name: string) => `alpha__${name}`),
      ...REFERENCE_TOOL_NAMES.map((name: string) => `beta__${name}`),
    ]);
    expect(tools.beta__echo?.metadata).toEqual({ mcp: { server: 'beta', tool: 'echo' } });

    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'beta__echo', input: { text: 'to beta' } }] }]);
    await runLoop(mode, model, tools);
    expect(callsReceived(first)).toEqual([]);
    expect(callsReceived(second)).toEqual([['echo', { text: 'to beta' }]]);
    expect(toolResultsIn(prompts[1])[0]?.toolName).toBe('beta__echo');
  });

  it('re-lists when the server changes its tools, and the next loop can call the new one', async () => {
    const started = await peer();
    const changes: string[][] = [];
    await using watcher = await watchMcpToolSet(started.client, {
      onChange: (tools) => changes.push(Object.keys(tools)),
    });
    const snapshot = watcher.tools;
    expect(Object.keys(snapshot)).toEqual(REFERENCE_TOOL_NAMES);

    const first = scriptedModel([{ calls: [{ toolName: 'add-tool', input: {} }] }]);
    await runLoop(mode, first.model, watcher.tools);
    await vi.waitFor(() => expect(Object.keys(watcher.tools)).toContain('dynamic-1'));
    expect(changes.at(-1)).toEqual([...REFERENCE_TOOL_NAMES, 'dynamic-1']);
    expect(Object.keys(snapshot)).not.toContain('dynamic-1');

    const second = scriptedModel([{ calls: [{ toolName: 'dynamic-1', input: {} }] }]);
    await runLoop(mode, second.model, watcher.tools);
    expect(toolResultsIn(second.prompts[1])).toEqual([
      { toolName: 'dynamic-1', output: { type: 'content', value: [{ type: 'text', text: 'dynamic 1' }] } },
    ]);
  });
});

describe('mcpToolSet sources', () => {
  it("prefixes an array's shared names with each client's place in it (s0, s1), not the server's name", async () => {
    const [first, second] = [await peer(), await peer()];
    const tools = await mcpToolSet([first.client, second.client]);
    expect(Object.keys(tools)).toEqual([
      ...REFERENCE_TOOL_NAMES.map((name: string) => `s0__${name}`),
      ...REFERENCE_TOOL_NAMES.map((name: string) => `s1__${name}`),
    ]);
    expect(tools.s1__echo?.metadata).toEqual({ mcp: { server: 's1', tool: 'echo' } });

    await tools.s1__echo?.execute?.({ text: 'second' }, { toolCallId: 'c1', messages: [] });
    expect(callsReceived(first)).toEqual([]);
    expect(callsReceived(second)).toEqual([['echo', { text: 'second' }]]);
  });

  it('prefixes only the names both servers list', async () => {
    const full = await peer();
    const minimal = await referencePeer({ profile: 'minimal' });
    peers.push(minimal);
    const tools = await mcpToolSet({ full: full.client, minimal: minimal.client });
    expect(Object.keys(tools)).toEqual([
      'full__echo',
      ...REFERENCE_TOOL_NAMES.filter((name: string) => name !== 'echo'),
      'minimal__echo',
    ]);
  });

  it('prefixes every tool of one client with prefix: true (s0) or a string', async () => {
    const { client } = await peer();
    expect(Object.keys(await mcpToolSet(client, { prefix: true }))).toEqual(
      REFERENCE_TOOL_NAMES.map((name: string) => `s0__${name}`),
    );
    const tools = await mcpToolSet(client, { prefix: 'ref' });
    expect(Object.keys(tools)).toEqual(REFERENCE_TOOL_NAMES.map((name: string) => `ref__${name}`));
    expect(tools.ref__echo?.metadata).toEqual({ mcp: { server: 'ref', tool: 'echo' } });
  });

  it('refuses a source that is not clients with a TypeError', async () => {
    const { client } = await peer();
    await expect(mcpToolSet(null as never)).rejects.toThrow(TypeError);
    await expect(mcpToolSet([client, undefined] as never)).rejects.toThrow('an array item is not a Client');
    await expect(mcpToolSet({ good: client, bad: {} } as never)).rejects.toThrow('bad is not a Client');
  });

  it("refuses a key or prefix that could begin another source's names, before listing anything", async () => {
    const started = await peer();
    const listed = started.received.length;
    for (const [source, options] of [
      [{ 'git hub': started.client }, {}],
      [{ github_: started.client }, {}],
      [{ a__b: started.client }, {}],
      [started.client, { prefix: 'gh__x' }],
      [{ ['x'.repeat(33)]: started.client }, {}],
    ] as const) {
      await expect(mcpToolSet(source, options)).rejects.toThrow(TypeError);
    }
    expect(started.received).toHaveLength(listed);
  });

  it('refuses a string prefix for several clients before listing anything', async () => {
    const [first, second] = [await peer(), await peer()];
    const listed = first.received.length;
    await expect(mcpToolSet([first.client, second.client], { prefix: 'x' })).rejects.toThrow(TypeError);
    expect(first.received).toHaveLength(listed);
  });
});

describe('watchMcpToolSet', () => {
  it('follows a 2026-07-28 server over stdio (subscriptions/listen, tools/list cached for a minute)', async () => {
    const server = fileURLToPath(new URL('../../../test-servers/stdio.mjs', import.meta.url));
    await using client = new Client(
      new StdioTransport({ command: process.execPath, args: [server, '--sdk', 'v2'], stderr: 'ignore' }),
    );
    await client.connect();
    expect(client.era).toBe('modern');
    await using watcher = await watchMcpToolSet(client);
    expect(Object.keys(watcher.tools)).not.toContain('dynamic-1');

    const { model } = scriptedModel([{ calls: [{ toolName: 'add-tool', input: {} }] }]);
    await runLoop('generateText', model, watcher.tools);
    await vi.waitFor(() => expect(Object.keys(watcher.tools)).toContain('dynamic-1'));
  });

  it('refresh() lists again at once and resolves with the new set', async () => {
    const started = await peer();
    await using watcher = await watchMcpToolSet(started.client);
    await started.client.callTool('add-tool');
    expect(Object.keys(await watcher.refresh())).toEqual([...REFERENCE_TOOL_NAMES, 'dynamic-1']);
    const refreshed = await watcher.refresh();
    expect(watcher.tools).toBe(refreshed);
  });

  it('serves every refresh asked while a listing runs with one more listing, not one each', async () => {
    const started = await peer();
    await using watcher = await watchMcpToolSet(started.client);
    const lists = () => started.received.filter((message) => 'method' in message && message.method === 'tools/list');
    const before = lists().length;
    const refreshes = [watcher.refresh(), watcher.refresh(), watcher.refresh()];
    expect(refreshes[1]).toBe(refreshes[0]);
    expect(refreshes[2]).toBe(refreshes[0]);
    await Promise.all(refreshes);
    // The first listing, then one more for the two asked while it ran: 11 tools are 3 pages of 5 each time.
    expect(lists().length - before).toBe(2 * 3);
  });

  it('stops following changes once closed', async () => {
    const started = await peer();
    let changes = 0;
    const watcher = await watchMcpToolSet(started.client, { onChange: () => changes++ });
    const before = watcher.tools;
    await watcher.close();
    await started.client.callTool('add-tool');
    // The server sends list_changed before the call's answer: it has arrived by the end of one more round trip.
    await started.client.listTools();
    expect(changes).toBe(0);
    expect(watcher.tools).toBe(before);
  });

  it('reports a re-listing that fails after a change to onError and keeps the tools it had', async () => {
    // limits.maxPages 3 holds 15 tools at the server's page size of 5; the fifth added tool makes 16.
    const started = await referencePeer({}, { limits: { maxPages: 3 } });
    peers.push(started);
    const errors: unknown[] = [];
    await using watcher = await watchMcpToolSet(started.client, { onError: (error) => errors.push(error) });
    for (let added = 0; added < 5; added++) await started.client.callTool('add-tool');

    // Each re-listing that meets 16 tools fails (how many do depends on how the listings and calls interleave).
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    for (const error of errors) expect(error).toBeInstanceOf(LimitError);
    expect(Object.keys(watcher.tools).length).toBeGreaterThanOrEqual(REFERENCE_TOOL_NAMES.length);
    expect(Object.keys(watcher.tools).length).toBeLessThanOrEqual(15);
  });

  it("gives a throwing onChange's error to onError, ignores a throwing onError, and leaves no unhandled rejection", async () => {
    const started = await peer();
    const errors: unknown[] = [];
    const watcher = await watchMcpToolSet(started.client, {
      onChange: () => {
        throw new Error('onChange broke');
      },
      onError: (error) => {
        errors.push(error);
        throw new Error('onError broke too');
      },
    });
    // After a change notification (the listing the watcher starts itself)…
    await started.client.callTool('add-tool');
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(Object.keys(watcher.tools)).toContain('dynamic-1');
    // …and after refresh(), which still resolves with the new set.
    expect(await watcher.refresh()).toBe(watcher.tools);
    expect(errors.map((error) => (error as Error).message)).toEqual(['onChange broke', 'onChange broke']);
    await watcher.close();
  });

  it('changes nothing and reports nothing for a listing under way at close(), and refuses refresh() after it', async () => {
    const unavailable = new Set<string>();
    const started = await referencePeer({ unavailable });
    peers.push(started);
    let changes = 0;
    const errors: unknown[] = [];
    const watcher = await watchMcpToolSet(started.client, {
      onChange: () => changes++,
      onError: (error) => errors.push(error),
    });
    const other = await watchMcpToolSet(started.client, { onError: (error) => errors.push(error) });
    // Both have served the change notification before the listings this test watches start.
    await started.client.callTool('add-tool');
    for (const each of [watcher, other]) await vi.waitFor(() => expect(Object.keys(each.tools)).toContain('dynamic-1'));
    changes = 0;
    const before = watcher.tools;

    // A listing that would succeed, and one that would fail, each under way when its watcher closes.
    const succeeding = watcher.refresh();
    await watcher.close();
    await expect(succeeding).rejects.toThrow('watchMcpToolSet: the watcher is closed');
    unavailable.add('tools/list');
    const failing = other.refresh();
    await other.close();
    await expect(failing).rejects.toThrow('watchMcpToolSet: the watcher is closed');

    expect(changes).toBe(0);
    expect(errors).toEqual([]);
    expect(watcher.tools).toBe(before);
    await expect(watcher.refresh()).rejects.toBeInstanceOf(McpError);
  });

  it('lists a client again after a failed listing with no new change, backing off between retries', async () => {
    const unavailable = new Set<string>();
    const started = await referencePeer({ unavailable });
    peers.push(started);
    const failedAt: number[] = [];
    const retryMs = { firstMs: 100, maxMs: 200 };
    await using watcher = await watchMcpToolSet(started.client, {
      retryMs,
      onError: () => failedAt.push(performance.now()),
    });
    unavailable.add('tools/list');
    await started.client.callTool('add-tool');

    // The change's listing fails, then each retry: 100 ms after the first failure, then 200 (the cap).
    await vi.waitFor(() => expect(failedAt.length).toBeGreaterThanOrEqual(4), { timeout: 3_000 });
    const gaps = failedAt.slice(1, 4).map((at, index) => at - (failedAt[index] ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(retryMs.firstMs - 5);
    for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(retryMs.maxMs - 5);
    expect(Object.keys(watcher.tools)).not.toContain('dynamic-1');

    // The server recovers: the next retry lists the tool, with no notification.
    unavailable.clear();
    await vi.waitFor(() => expect(Object.keys(watcher.tools)).toContain('dynamic-1'), { timeout: 3_000 });
  });

  it('tells onError when a 2026-07-28 server ends its listen stream, and lists that client once more', async () => {
    const servers: { modes: string; close(): Promise<void> } = await startHttpServers();
    // In front of the /v2 endpoint: the first subscriptions/listen is answered with a result at once,
    // which ends the stream gracefully; everything else goes to the server.
    let ended = 0;
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString();
      const message = body ? (JSON.parse(body) as { method?: string; id?: unknown }) : {};
      if (message.method === 'subscriptions/listen' && ended++ === 0) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
      }
      const init = { method: request.method ?? 'POST', headers, ...(body && { body }) };
      const answer = await fetch(`${servers.modes}/v2`, init);
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body) Readable.fromWeb(answer.body as never).pipe(response);
      else response.end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
      await using client = new Client(new StreamableHttpTransport(url));
      await client.connect();
      expect(client.era).toBe('modern');
      const errors: unknown[] = [];
      const listed: number[] = [];
      await using watcher = await watchMcpToolSet(client, {
        onError: (error) => errors.push(error),
        onChange: (tools) => listed.push(Object.keys(tools).length),
      });
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(errors[0]).toBeInstanceOf(McpError);
      expect((errors[0] as Error).message).toMatch(/ended its change stream/);
      expect(listed).toHaveLength(1);
      expect(Object.keys(watcher.tools).length).toBe(listed[0]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await servers.close();
    }
  });

  it('reports nothing when the client is closed before the watcher', async () => {
    const started = await peer();
    const errors: unknown[] = [];
    const watcher = await watchMcpToolSet(started.client, { onError: (error) => errors.push(error) });
    await started.close();
    // The stream's end is checked with one listing, which the closed client refuses at once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
    await watcher.close();
  });

  it('keeps the last tools when a re-listing fails, and rejects refresh() with the typed error', async () => {
    const started = await peer();
    const watcher = await watchMcpToolSet(started.client);
    const before = watcher.tools;
    await started.close();
    await expect(watcher.refresh()).rejects.toBeInstanceOf(McpError);
    expect(watcher.tools).toBe(before);
    await watcher.close();
  });
});

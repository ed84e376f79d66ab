import { type JsonRpcMessage, MemoryTransport } from '@mcp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveInProcess } from '../in-process.mjs';
import { REFERENCE_TOOL_NAMES } from '../reference/fixtures.mjs';
import { type Message, RawPeer, spawnStdioServer } from './raw-peer.js';

const text = (response: Message) => (response.result as { content: { text: string }[] }).content[0]?.text;

describe('reference server over stdio (v1, --profile full)', () => {
  let server: ReturnType<typeof spawnStdioServer>;
  let initResult: Record<string, unknown>;

  beforeAll(async () => {
    server = spawnStdioServer();
    initResult = await server.peer.initialize();
  });
  afterAll(() => server.stop());

  it('answers initialize on 2025-11-25 with its name, instructions and every capability', () => {
    expect(initResult.protocolVersion).toBe('2025-11-25');
    expect(initResult.serverInfo).toMatchObject({ name: 'mcp-reference-server', version: '1.0.0' });
    expect(initResult.instructions).toEqual(expect.any(String));
    expect(Object.keys(initResult.capabilities as object).sort()).toEqual([
      'completions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
  });

  it('lists its eleven tools over three pages of five', async () => {
    const { items, pages } = await server.peer.listAll('tools/list', 'tools');
    expect(pages).toBe(3);
    expect(items.map((tool) => tool.name)).toEqual(REFERENCE_TOOL_NAMES);
  });

  it('returns mixed-content parts in the documented order, keeping annotations and the unknown field', async () => {
    const response = await server.peer.request('tools/call', { name: 'mixed-content', arguments: {} });
    const content = (response.result as { content: Record<string, unknown>[] }).content;
    expect(content.map((part) => part.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link', 'text']);
    expect(content[0]).toMatchObject({ text: 'first', annotations: { audience: ['user'] } });
    expect(Buffer.from(String(content[1]?.data), 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(Buffer.from(String(content[2]?.data), 'base64').subarray(8, 12).toString()).toBe('WAVE');
    expect(content[2]).toHaveProperty('unknownExtra');
    expect(content[3]).toMatchObject({ resource: { uri: 'test://static/text/1', text: 'Resource 1' } });
    expect(content[4]).toMatchObject({ uri: 'test://static/binary/1', mimeType: 'application/octet-stream' });
    expect(content[5]).toMatchObject({ text: 'last' });
  });

  it('lists twelve resources in three pages and reads binary N as the bytes N..N+7', async () => {
    const { items, pages } = await server.peer.listAll('resources/list', 'resources');
    expect(pages).toBe(3);
    expect(items).toHaveLength(12);
    const read = await server.peer.request('resources/read', { uri: 'test://static/binary/3' });
    const [contents] = (read.result as { contents: { blob: string; mimeType: string }[] }).contents;
    expect(contents?.mimeType).toBe('application/octet-stream');
    expect([...Buffer.from(String(contents?.blob), 'base64')]).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('answers a read of an unknown resource with JSON-RPC error -32002', async () => {
    const response = await server.peer.request('resources/read', { uri: 'test://static/text/99' });
    expect(response.error).toMatchObject({ code: -32002 });
  });

  it('reports progress for slow when the call carries a progressToken', async () => {
    const response = await server.peer.request('tools/call', {
      name: 'slow',
      arguments: { steps: 2, intervalMs: 5 },
      _meta: { progressToken: 'slow-1' },
    });
    expect(text(response)).toBe('done after 2 steps');
    const progress = server.peer.notifications.filter((n) => n.method === 'notifications/progress');
    expect(progress.map((n) => n.params)).toMatchObject([
      { progressToken: 'slow-1', progress: 1, total: 2 },
      { progressToken: 'slow-1', progress: 2, total: 2 },
    ]);
  });
});

describe('reference server on the v2 SDK (--sdk v2)', () => {
  let server: ReturnType<typeof spawnStdioServer>;
  beforeAll(() => {
    server = spawnStdioServer(['--sdk', 'v2']);
  });
  afterAll(() => server.stop());

  it('answers server/discover and runs sample as a multi-round-trip tools/call on 2026-07-28', async () => {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'reference-server-test', version: '0.0.0' },
    };
    const discover = await server.peer.request('server/discover', { _meta });
    expect(discover.result).toMatchObject({ supportedVersions: ['2026-07-28'] });
    const call = { name: 'sample', arguments: { prompt: 'hi' }, _meta };
    const first = await server.peer.request('tools/call', call);
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { sampling: { method: 'sampling/createMessage' } },
    });
    const sampled = { role: 'assistant', model: 'test', content: { type: 'text', text: 'sampled' } };
    const retry = await server.peer.request('tools/call', { ...call, inputResponses: { sampling: sampled } });
    expect(text(retry)).toBe('sampled');
  });
});

describe('reference server variants', () => {
  it('--profile minimal declares tools alone and has no resources method', async () => {
    const server = spawnStdioServer(['--profile', 'minimal']);
    try {
      const init = await server.peer.initialize();
      expect(init.capabilities).toEqual({ tools: {} });
      const { items } = await server.peer.listAll('tools/list', 'tools');
      expect(items.map((tool) => tool.name)).toEqual(['echo']);
      expect((await server.peer.request('resources/list')).error).toMatchObject({ code: -32601 });
    } finally {
      await server.stop();
    }
  });

  it('serves in-process over a MemoryTransport pair and stops when the client end closes', async () => {
    const [clientEnd, serverEnd] = MemoryTransport.createPair();
    const handle = await serveInProcess(serverEnd, { pageSize: 20 });
    const peer = new RawPeer((message) => clientEnd.send(message as JsonRpcMessage));
    const pump = (async () => {
      for await (const event of clientEnd.messages())
        if (event.type === 'message') peer.receive(event.message as Message);
    })();
    await peer.initialize();
    const { pages } = await peer.listAll('tools/list', 'tools');
    expect(pages).toBe(1);
    expect(text(await peer.request('tools/call', { name: 'echo', arguments: { text: 'in memory' } }))).toBe(
      'in memory',
    );
    await clientEnd.close();
    await pump;
    await handle.closed;
    await handle.close();
  });
});

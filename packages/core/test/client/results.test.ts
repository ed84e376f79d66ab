import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { connected, useScriptedClients } from './harness.js';

useScriptedClients();

/** base64 of the bytes 0, 255, 128, 1, 2, 3: every high and low edge a decoder can get wrong. */
const BYTES = new Uint8Array([0, 255, 128, 1, 2, 3]);
const BYTES_B64 = 'AP+AAQID';

describe('callTool', () => {
  it('sends {} when callTool args are omitted', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('now');
    const request = await server.expect('tools/call');
    expect(request.params).toEqual({ name: 'now', arguments: {} });
    await server.reply(request.id, { content: [] });
    await calling;
  });

  it('keeps content verbatim in wire order, unknown part types and extra fields included', async () => {
    const { client, server } = await connected();
    const content = [
      { type: 'text', text: 'one', annotations: { priority: 1 }, vendorField: { deep: [1, 2] } },
      { type: 'hologram', frames: 12, payload: { x: 1 } },
      { type: 'image', data: BYTES_B64, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///x', name: 'x', extra: true },
      { type: 'text', text: 'two' },
    ];
    const calling = client.callTool('mixed', { q: 1 });
    const request = await server.expect('tools/call');
    await server.reply(request.id, { content });
    expect((await calling).content).toEqual(content);
  });

  it("keeps every other member of the result as it came (a later revision's field, an extension's)", async () => {
    const { client, server } = await connected();
    const calling = client.callTool('future');
    const request = await server.expect('tools/call');
    const extra = { 'vendor.example/trace': { id: 'abc' }, futureField: [1, 2] };
    await server.reply(request.id, { content: [{ type: 'text', text: 'x' }], ...extra });
    expect(await calling).toEqual({ content: [{ type: 'text', text: 'x' }], text: 'x', isError: false, ...extra });
  });

  it("a __proto__ member of the result does not become the result's prototype", async () => {
    const { client, server } = await connected();
    const calling = client.callTool('hostile');
    const request = await server.expect('tools/call');
    // JSON.parse makes `__proto__` an own member, and it crosses the wire so.
    const result = JSON.parse('{"content":[],"__proto__":{"structuredContent":"forged","isError":true}}');
    await server.send({ jsonrpc: '2.0', id: request.id, result });
    const answer = await calling;
    expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
    expect(answer.structuredContent).toBeUndefined();
    expect(answer.isError).toBe(false);
  });

  it('text concatenates the text parts in order', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('say');
    const request = await server.expect('tools/call');
    await server.reply(request.id, {
      content: [
        { type: 'text', text: 'Hello, ' },
        { type: 'image', data: BYTES_B64, mimeType: 'image/png' },
        { type: 'text', text: 'world' },
        { type: 'text', text: '!' },
      ],
    });
    expect((await calling).text).toBe('Hello, world!');
  });

  it('surfaces isError true as isError, not a throw', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('fail');
    const request = await server.expect('tools/call');
    await server.reply(request.id, { content: [{ type: 'text', text: 'disk full' }], isError: true });
    const result = await calling;
    expect(result.isError).toBe(true);
    expect(result.text).toBe('disk full');
  });

  it('passes structuredContent and _meta through', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('weather');
    const request = await server.expect('tools/call');
    const structuredContent = { temperature: 21.5, unit: 'C', readings: [1, 2] };
    const _meta = { 'example.com/trace': 'abc', nested: { n: 1 } };
    await server.reply(request.id, { content: [], structuredContent, _meta });
    const result = await calling;
    expect(result.structuredContent).toEqual(structuredContent);
    expect(result._meta).toEqual(_meta);
    expect(result.isError).toBe(false);
  });
});

describe('readResource', () => {
  it('returns text contents as text', async () => {
    const { client, server } = await connected();
    const reading = client.readResource('file:///notes.md');
    const request = await server.expect('resources/read');
    expect(request.params).toEqual({ uri: 'file:///notes.md' });
    await server.reply(request.id, {
      contents: [{ uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Hi' }],
    });
    expect((await reading).contents).toEqual([{ uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Hi' }]);
  });

  it('decodes a base64 blob to a Uint8Array of the exact bytes', async () => {
    const { client, server } = await connected();
    const reading = client.readResource('file:///bin');
    const request = await server.expect('resources/read');
    await server.reply(request.id, {
      contents: [{ uri: 'file:///bin', mimeType: 'application/octet-stream', blob: BYTES_B64 }],
    });
    const [contents] = (await reading).contents;
    expect(contents?.blob).toBeInstanceOf(Uint8Array);
    expect([...(contents?.blob ?? [])]).toEqual([...BYTES]);
    expect(contents?.text).toBeUndefined();
  });

  it('rejects invalid base64 with a ProtocolError for that call only', async () => {
    const { client, server } = await connected();
    const bad = client.readResource('file:///bad');
    const first = await server.expect('resources/read');
    await server.reply(first.id, { contents: [{ uri: 'file:///bad', blob: 'not base64!' }] });
    const error = await bad.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('resources/read');

    const good = client.readResource('file:///good');
    const second = await server.expect('resources/read');
    await server.reply(second.id, { contents: [{ uri: 'file:///good', blob: BYTES_B64 }] });
    expect([...((await good).contents[0]?.blob ?? [])]).toEqual([...BYTES]);
  });
});

describe('getPrompt', () => {
  /** Replies to the next prompts/get with one message per part and returns the flattened parts. */
  async function promptParts(parts: Record<string, unknown>[]) {
    const { client, server } = await connected();
    const getting = client.getPrompt('p', { topic: 'x' });
    const request = await server.expect('prompts/get');
    expect(request.params).toEqual({ name: 'p', arguments: { topic: 'x' } });
    await server.reply(request.id, {
      description: 'A prompt',
      messages: parts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })),
    });
    const result = await getting;
    expect(result.description).toBe('A prompt');
    return result.messages.map((message) => ({ role: message.role, parts: message.content }));
  }

  it('flattens text parts in message order', async () => {
    const messages = await promptParts([
      { type: 'text', text: 'first' },
      { type: 'text', text: 'second' },
    ]);
    expect(messages.map((m) => [m.role, m.parts.map((p) => [p.type, p.text])])).toEqual([
      ['user', [['text', 'first']]],
      ['assistant', [['text', 'second']]],
    ]);
  });

  it('decodes image and audio data to bytes', async () => {
    const messages = await promptParts([
      { type: 'image', data: BYTES_B64, mimeType: 'image/png' },
      { type: 'audio', data: 'AQID', mimeType: 'audio/wav' },
    ]);
    const [image, audio] = messages.map((m) => m.parts[0]);
    expect(image?.type).toBe('image');
    expect(image?.mimeType).toBe('image/png');
    expect([...(image?.data ?? [])]).toEqual([...BYTES]);
    expect(audio?.type).toBe('audio');
    expect(audio?.mimeType).toBe('audio/wav');
    expect([...(audio?.data ?? [])]).toEqual([1, 2, 3]);
  });

  it('maps an embedded resource to its contents, blob decoded', async () => {
    const messages = await promptParts([
      { type: 'resource', resource: { uri: 'file:///doc.txt', mimeType: 'text/plain', text: 'doc body' } },
      { type: 'resource', resource: { uri: 'file:///img', mimeType: 'image/png', blob: BYTES_B64 } },
    ]);
    const [text, blob] = messages.map((m) => m.parts[0]);
    expect(text?.resource).toEqual({ uri: 'file:///doc.txt', mimeType: 'text/plain', text: 'doc body' });
    expect(text?.mimeType).toBe('text/plain');
    expect(blob?.resource?.uri).toBe('file:///img');
    expect([...(blob?.resource?.blob ?? [])]).toEqual([...BYTES]);
  });

  it('keeps an unknown part type with its type and raw form, without an error', async () => {
    const unknown = { type: 'hologram', frames: 3 };
    const messages = await promptParts([unknown, { type: 'text', text: 'after' }]);
    const [part] = messages[0]?.parts ?? [];
    expect(part?.type).toBe('hologram');
    expect(part?.raw).toEqual(unknown);
    expect(messages[1]?.parts[0]?.text).toBe('after');
  });
});

describe('complete', () => {
  it('sends ref, argument and context.arguments', async () => {
    const { client, server } = await connected();
    const completing = client.complete({
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'language', value: 'py' },
      context: { arguments: { framework: 'django' } },
    });
    const request = await server.expect('completion/complete');
    expect(request.params).toEqual({
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'language', value: 'py' },
      context: { arguments: { framework: 'django' } },
    });
    await server.reply(request.id, { completion: { values: [] } });
    await completing;
  });

  it('returns values, total and hasMore', async () => {
    const { client, server } = await connected();
    const completing = client.complete({
      ref: { type: 'ref/resource', uri: 'file:///{path}' },
      argument: { name: 'path', value: 'sr' },
    });
    const request = await server.expect('completion/complete');
    expect(request.params).toEqual({
      ref: { type: 'ref/resource', uri: 'file:///{path}' },
      argument: { name: 'path', value: 'sr' },
    });
    await server.reply(request.id, { completion: { values: ['src', 'srv'], total: 7, hasMore: true } });
    expect(await completing).toEqual({ values: ['src', 'srv'], total: 7, hasMore: true });
  });
});

import type { ToolResult } from '@mcp/core';
import { describe, expect, it } from 'vitest';
import { toModelOutput } from '../src/model-output.js';

// Parts the reference server never sends (mcp-tool-set.test.ts covers the ones
// it does, through a real loop): a blob resource, a kind this package does not
// know, an empty result, a structuredContent that is not an object.

const result = (content: unknown[], structuredContent?: unknown): ToolResult => ({
  content: content as ToolResult['content'],
  text: '',
  isError: false,
  ...(structuredContent === undefined ? {} : { structuredContent }),
});

describe('toModelOutput', () => {
  it('gives an embedded blob resource as media of its MIME type (octet-stream when it has none)', () => {
    const output = toModelOutput(
      result([
        { type: 'resource', resource: { uri: 'test://a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'test://raw', blob: 'AAEC' } },
      ]),
      'ai6',
    );
    expect(output).toEqual({
      type: 'content',
      value: [
        { type: 'file-data', data: 'JVBERi0=', mediaType: 'application/pdf' },
        { type: 'file-data', data: 'AAEC', mediaType: 'application/octet-stream' },
      ],
    });
    expect(toModelOutput(result([{ type: 'image', data: 'iVBO', mimeType: 'image/png' }]), 'ai7')).toEqual({
      type: 'content',
      value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBO' } }],
    });
  });

  it('names a part of a kind it does not know instead of dropping it or failing', () => {
    expect(
      toModelOutput(
        result([
          { type: 'hologram', frames: 3 },
          { type: 'text', text: 'after' },
        ]),
        'ai6',
      ),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '[hologram content omitted]' },
        { type: 'text', text: 'after' },
      ],
    });
  });

  it('gives an empty result as empty text, and any structuredContent value as JSON', () => {
    expect(toModelOutput(result([]), 'ai6')).toEqual({ type: 'text', value: '' });
    expect(toModelOutput(result([{ type: 'text', text: '[1,2]' }], [1, 2]), 'ai6')).toEqual({
      type: 'json',
      value: [1, 2],
    });
    expect(toModelOutput(result([], null), 'ai6')).toEqual({ type: 'json', value: null });
  });

  it('gives structuredContent with media as its JSON in a text part, then the media, leaving out the text parts', () => {
    const blocks = [
      { type: 'text', text: '{"city":"Oslo"}' },
      { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
      { type: 'resource', resource: { uri: 'test://a.txt', text: 'the text resource' } },
    ];
    expect(toModelOutput(result(blocks, { city: 'Oslo' }), 'ai6')).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '{"city":"Oslo"}' },
        { type: 'image-data', data: 'iVBO', mediaType: 'image/png' },
        { type: 'file-data', data: 'JVBERi0=', mediaType: 'application/pdf' },
      ],
    });
    expect(toModelOutput(result([{ type: 'audio', data: 'UklG', mimeType: 'audio/wav' }], { n: 1 }), 'ai7')).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '{"n":1}' },
        { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'UklG' } },
      ],
    });
  });

  it('gives an output that is not a tool result (one an app stored itself) as JSON', () => {
    expect(toModelOutput({ answer: 42 } as unknown as ToolResult, 'ai6')).toEqual({
      type: 'json',
      value: { answer: 42 },
    });
    expect(toModelOutput(undefined as unknown as ToolResult, 'ai6')).toEqual({ type: 'json', value: null });
  });
});

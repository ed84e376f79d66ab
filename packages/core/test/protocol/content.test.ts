import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ContentBlockSchema, isKnownContentBlock, ResourceContentsSchema } from '../../src/protocol/index.js';
import { fixture, parses, rejectedAt } from './helpers.js';

const ContentListSchema = v.looseObject({ content: v.array(ContentBlockSchema) });
const mixed = () => (fixture('call-tool-result-mixed-content') as { result: { content: unknown[] } }).result;

describe('content blocks', () => {
  it('parses every known kind and keeps them in order', () => {
    const { content } = parses(ContentListSchema, mixed());
    expect(content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource',
      'resource_link',
      'hologram',
    ]);
    expect(content[0]).toMatchObject({ annotations: { audience: ['user'], priority: 0.8 } });
  });

  it('passes a part of unknown type through unchanged', () => {
    const { content } = parses(ContentListSchema, mixed());
    expect(content[6]).toEqual({ type: 'hologram', frames: 3, payload: { x: 1 } });
    expect(isKnownContentBlock(content[6]!)).toBe(false);
    expect(isKnownContentBlock(content[0]!)).toBe(true);
  });

  it('names the bad field of a broken known part', () => {
    const result = mixed();
    (result.content[1] as Record<string, unknown>).data = 42;
    expect(rejectedAt(ContentListSchema, result)).toEqual(['content.1.data']);
  });

  it('rejects image data that is not base64', () => {
    expect(rejectedAt(ContentBlockSchema, { type: 'image', data: 'not base64!', mimeType: 'image/png' })).toEqual([
      'data',
    ]);
  });

  it('accepts unpadded base64', () => {
    parses(ContentBlockSchema, { type: 'audio', data: 'UklGRg', mimeType: 'audio/wav' });
  });

  it('names missing fields of each kind', () => {
    expect(rejectedAt(ContentBlockSchema, { type: 'text' })).toEqual(['text']);
    expect(rejectedAt(ContentBlockSchema, { type: 'audio', data: '' })).toEqual(['mimeType']);
    expect(rejectedAt(ContentBlockSchema, { type: 'resource_link', uri: 'file:///a' })).toEqual(['name']);
    expect(rejectedAt(ContentBlockSchema, { type: 'resource', resource: { uri: 'x', text: 1 } })).toEqual([
      'resource.text',
    ]);
  });

  it('rejects parts that are not objects or have no string type', () => {
    expect(rejectedAt(ContentBlockSchema, 'text')).toEqual(['']);
    expect(rejectedAt(ContentBlockSchema, { type: 7 })).toEqual(['type']);
  });

  it('rejects annotations of the wrong shape', () => {
    expect(rejectedAt(ContentBlockSchema, { type: 'text', text: 'x', annotations: { audience: ['robot'] } })).toEqual([
      'annotations.audience.0',
    ]);
  });

  it('keeps unknown fields on known kinds', () => {
    const block = parses(ContentBlockSchema, { type: 'text', text: 'hi', _meta: { a: 1 }, future: true });
    expect(block).toEqual({ type: 'text', text: 'hi', _meta: { a: 1 }, future: true });
  });

  it('validates a large base64 payload in linear time', () => {
    const data = 'QUJD'.repeat(2_000_000);
    parses(ContentBlockSchema, { type: 'image', data, mimeType: 'image/png' });
  });
});

describe('resource contents', () => {
  it('tells text from blob', () => {
    expect(parses(ResourceContentsSchema, { uri: 'a', text: '' })).toEqual({ uri: 'a', text: '' });
    expect(parses(ResourceContentsSchema, { uri: 'b', blob: 'AAAA' })).toEqual({ uri: 'b', blob: 'AAAA' });
  });

  it('rejects contents with neither text nor blob, or a non-base64 blob', () => {
    expect(rejectedAt(ResourceContentsSchema, { uri: 'a' })).toEqual(['text']);
    expect(rejectedAt(ResourceContentsSchema, { uri: 'a', blob: '@@@' })).toEqual(['blob']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceResultSchema,
  ResourceSchema,
  resultResponseSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const ListResourcesResponse = resultResponseSchema(ListResourcesResultSchema);
const ReadResourceResponse = resultResponseSchema(ReadResourceResultSchema);

describe('resources/list and templates', () => {
  it('parses a 2025-11-25 page with title, size, annotations and icons', () => {
    const { result } = parses(ListResourcesResponse, fixture('list-resources-2025-11-25'));
    expect(result.resources[0]).toMatchObject({ title: 'Project readme', size: 2048, icons: [{ sizes: ['any'] }] });
    expect(result.nextCursor).toBe('c2');
  });

  it('parses 2026-07-28 templates with cache hints', () => {
    const { result } = parses(
      resultResponseSchema(ListResourceTemplatesResultSchema),
      fixture('list-resource-templates-2026-07-28'),
    );
    expect(result.resourceTemplates[0]?.uriTemplate).toBe('file:///{path}');
    expect(result.ttlMs).toBe(0);
  });

  it('requires uri and name, and names a bad size', () => {
    expect(rejectedAt(ResourceSchema, { uri: 'file:///a' })).toEqual(['name']);
    const bad = broken('list-resources-2025-11-25', (m) => {
      m.result.resources[0].size = '2 KB';
    });
    expect(rejectedAt(ListResourcesResponse, bad)).toEqual(['result.resources.0.size']);
  });
});

describe('resources/read', () => {
  it('parses text and blob contents, keeping their _meta', () => {
    const { result } = parses(ReadResourceResponse, fixture('read-resource-result'));
    expect(result.contents[0]).toEqual({
      uri: 'file:///project/README.md',
      mimeType: 'text/markdown',
      text: '# Project',
    });
    expect(result.contents[1]).toMatchObject({ blob: expect.any(String), _meta: { 'com.example/etag': 'abc' } });
  });

  it('accepts an empty contents list (exists, no content)', () => {
    expect(parses(ReadResourceResultSchema, { contents: [] }).contents).toEqual([]);
  });

  it('names the broken item', () => {
    const bad = broken('read-resource-result', (m) => {
      delete m.result.contents[0].uri;
    });
    expect(rejectedAt(ReadResourceResponse, bad)).toEqual(['result.contents.0.uri']);
  });

  it('parses MRTR retry params and rejects a non-string requestState', () => {
    const params = parses(ReadResourceRequestParamsSchema, { uri: 'file:///a', requestState: 's' });
    expect(params.requestState).toBe('s');
    expect(rejectedAt(ReadResourceRequestParamsSchema, { uri: 'file:///a', requestState: 1 })).toEqual([
      'requestState',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ElicitationCompleteNotificationParamsSchema,
  ElicitRequestParamsSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  PrimitiveSchemaDefinitionSchema,
  RequestMethod,
  RootSchema,
  requestSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const ElicitRequest = requestSchema(RequestMethod.Elicit, ElicitRequestParamsSchema);

describe('elicitation/create', () => {
  it('parses a 2025-06-18 form (no mode) with every primitive kind and enumNames', () => {
    const { params } = parses(ElicitRequest, fixture('elicit-request-2025-06-18'));
    if (params.mode === 'url') expect.fail('a request without mode is a form');
    expect(params.requestedSchema.properties.plan).toEqual({
      type: 'string',
      enum: ['free', 'pro'],
      enumNames: ['Free', 'Pro'],
    });
  });

  it('parses 2025-11-25 titled and multi-select enums, keeping unknown keywords verbatim', () => {
    const input = fixture('elicit-request-2025-11-25-form') as { params: unknown };
    const { params } = parses(ElicitRequest, input);
    expect(params).toEqual(input.params);
  });

  it('parses a 2025-11-25 URL-mode request with its elicitationId', () => {
    const { params } = parses(ElicitRequest, fixture('elicit-request-2025-11-25-url'));
    expect(params).toMatchObject({ mode: 'url', elicitationId: 'el-550e8400' });
  });

  it('rejects a URL-mode request whose url is not a URL, or that has no url', () => {
    const badUrl = broken('elicit-request-2025-11-25-url', (m) => {
      m.params.url = 'not a url';
    });
    expect(rejectedAt(ElicitRequest, badUrl)).toEqual(['params.url']);
    const noUrl = broken('elicit-request-2025-11-25-url', (m) => {
      delete m.params.url;
    });
    expect(rejectedAt(ElicitRequest, noUrl)).toEqual(['params.url']);
  });

  it('rejects an unknown mode and a form without requestedSchema', () => {
    expect(rejectedAt(ElicitRequestParamsSchema, { mode: 'voice', message: 'm', requestedSchema: {} })).toContain(
      'mode',
    );
    expect(rejectedAt(ElicitRequestParamsSchema, { message: 'm' })).toEqual(['requestedSchema']);
  });

  it('names the broken property of a requested schema', () => {
    const nested = broken('elicit-request-2025-06-18', (m) => {
      m.params.requestedSchema.properties.address = { type: 'object', properties: {} };
    });
    expect(rejectedAt(ElicitRequest, nested)).toEqual(['params.requestedSchema.properties.address.type']);
    const badOption = broken('elicit-request-2025-11-25-form', (m) => {
      delete m.params.requestedSchema.properties.labelled.items.anyOf[1].title;
    });
    expect(rejectedAt(ElicitRequest, badOption)).toEqual([
      'params.requestedSchema.properties.labelled.items.anyOf.1.title',
    ]);
    const rootNotObject = broken('elicit-request-2025-06-18', (m) => {
      m.params.requestedSchema.type = 'array';
    });
    expect(rejectedAt(ElicitRequest, rootNotObject)).toEqual(['params.requestedSchema.type']);
  });

  it('checks defaults against the field type', () => {
    expect(rejectedAt(PrimitiveSchemaDefinitionSchema, { type: 'boolean', default: 'yes' })).toEqual(['default']);
    expect(rejectedAt(PrimitiveSchemaDefinitionSchema, { type: 'string', enum: ['a'], default: 1 })).toEqual([
      'default',
    ]);
  });
});

describe('elicitation results', () => {
  it('parses an accepted form with string, number, boolean and multi-select values', () => {
    expect(parses(ElicitResultSchema, fixture('elicit-result-accept')).content).toEqual({
      name: 'Ada',
      age: 36,
      subscribe: true,
      extras: ['green'],
    });
    expect(parses(ElicitResultSchema, { action: 'decline' })).toEqual({ action: 'decline' });
  });

  it('rejects an unknown action and nested values', () => {
    expect(rejectedAt(ElicitResultSchema, { action: 'maybe' })).toEqual(['action']);
    expect(rejectedAt(ElicitResultSchema, { action: 'accept', content: { a: { b: 1 } } })).toEqual(['content.a']);
  });

  it('requires the elicitationId of a completion notification (2025-11-25)', () => {
    expect(rejectedAt(ElicitationCompleteNotificationParamsSchema, {})).toEqual(['elicitationId']);
  });
});

describe('roots', () => {
  it('parses roots with and without names, keeping _meta', () => {
    const { roots } = parses(ListRootsResultSchema, fixture('list-roots-result'));
    expect(roots[1]).toEqual({ uri: 'file:///home/user/projects/backend', _meta: { 'com.example/writable': true } });
  });

  it('rejects a root that is not a file:// URI', () => {
    expect(rejectedAt(RootSchema, { uri: 'https://example.com/repo' })).toEqual(['uri']);
    expect(rejectedAt(ListRootsResultSchema, { roots: [{ uri: 'file:///a' }, { uri: '/tmp' }] })).toEqual([
      'roots.1.uri',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  InputRequestSchema,
  InputRequiredResultSchema,
  InputResponsesSchema,
  orInputRequired,
  resultResponseSchema,
  resultTypeOf,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const InputRequiredResponse = resultResponseSchema(InputRequiredResultSchema);

describe('input_required results (2026-07-28)', () => {
  it('parses elicitation, sampling and roots input requests with request state', () => {
    const { result } = parses(InputRequiredResponse, fixture('input-required-result-2026-07-28'));
    expect(Object.keys(result.inputRequests ?? {})).toEqual(['github_login', 'summary', 'where']);
    expect(result.inputRequests?.where).toEqual({ method: 'roots/list' });
    expect(result.requestState).toBe('eyJzdGVwIjoxfQ.c2ln');
  });

  it('parses the request-state-only form', () => {
    const { result } = parses(InputRequiredResponse, fixture('input-required-result-state-only'));
    expect(result).toEqual({ resultType: 'input_required', requestState: 'opaque-state-7' });
  });

  it('rejects a result with neither input requests nor request state', () => {
    expect(rejectedAt(InputRequiredResultSchema, { resultType: 'input_required' })).toEqual(['']);
  });

  it('names the broken part of an input request', () => {
    const badElicit = broken('input-required-result-2026-07-28', (m) => {
      m.result.inputRequests.github_login.params.requestedSchema.properties.name.type = 'object';
    });
    expect(rejectedAt(InputRequiredResponse, badElicit)).toEqual([
      'result.inputRequests.github_login.params.requestedSchema.properties.name.type',
    ]);
    const badSampling = broken('input-required-result-2026-07-28', (m) => {
      delete m.result.inputRequests.summary.params.maxTokens;
    });
    expect(rejectedAt(InputRequiredResponse, badSampling)).toEqual(['result.inputRequests.summary.params.maxTokens']);
  });

  it('rejects an input request method the client cannot answer', () => {
    expect(rejectedAt(InputRequestSchema, { method: 'tools/call', params: {} })).toEqual(['method']);
    expect(rejectedAt(InputRequestSchema, { params: {} })).toEqual(['method']);
  });

  it('picks the result shape from resultType', () => {
    const schema = orInputRequired(CallToolResultSchema);
    const pending = parses(schema, { resultType: 'input_required', requestState: 's' });
    const done = parses(schema, { content: [] });
    expect([resultTypeOf(pending), resultTypeOf(done)]).toEqual(['input_required', 'complete']);
    expect(rejectedAt(schema, { resultType: 'input_required', content: [] })).toEqual(['']);
  });
});

describe('retries', () => {
  it('parses retry params answering each key with its bare result', () => {
    const params = parses(CallToolRequestParamsSchema, fixture('retry-params-2026-07-28'));
    expect(params.inputResponses?.github_login).toEqual({ action: 'accept', content: { name: 'octocat' } });
    expect(params.inputResponses?.where).toEqual({ roots: [{ uri: 'file:///repo' }] });
  });

  it('names the broken answer', () => {
    expect(rejectedAt(InputResponsesSchema, { a: { action: 'accept' }, b: { roots: [{ uri: 'http://x' }] } })).toEqual([
      'b.roots.0.uri',
    ]);
    expect(
      rejectedAt(InputResponsesSchema, { s: { role: 'assistant', content: { type: 'text', text: 'x' } } }),
    ).toEqual(['s.model']);
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  isJsonRpcErrorResponse,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isRequestId,
  JsonRpcBatchSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcMessageSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  JsonRpcResultResponseSchema,
  RequestIdSchema,
} from '../../src/protocol/index.js';
import { isResultResponse } from '../../src/protocol/jsonrpc.js';
import { fixture, parses, rejectedAt } from './helpers.js';

describe('request ids', () => {
  it('accepts strings and integers', () => {
    expect(parses(RequestIdSchema, 'abc')).toBe('abc');
    expect(parses(RequestIdSchema, 0)).toBe(0);
    expect(parses(RequestIdSchema, -7)).toBe(-7);
  });

  it('rejects null, fractions and other types', () => {
    for (const id of [null, 1.5, true, {}, undefined]) rejectedAt(RequestIdSchema, id);
  });

  it('isRequestId, the one test every package uses, takes a string or a whole number of any size', () => {
    // A big integer arrives from JSON.parse already rounded to a whole number; the spec sets no bound.
    const big = JSON.parse('123456789012345678901234567890');
    for (const id of ['', 'abc', 0, -7, 2 ** 53 + 2, big]) expect(isRequestId(id), String(id)).toBe(true);
  });

  it('isRequestId refuses null, fractions, NaN, the infinities, bigint and other types', () => {
    const refused = [null, undefined, 1.5, -0.1, Number.NaN, Number.POSITIVE_INFINITY, 10n, true, {}, ['1']];
    for (const id of refused) expect(isRequestId(id), String(id)).toBe(false);
  });

  it('rejects a request whose id is null or fractional, naming id', () => {
    expect(rejectedAt(JsonRpcRequestSchema, { jsonrpc: '2.0', id: null, method: 'ping' })).toEqual(['id']);
    expect(rejectedAt(JsonRpcRequestSchema, { jsonrpc: '2.0', id: 2.5, method: 'ping' })).toEqual(['id']);
    expect(rejectedAt(JsonRpcResultResponseSchema, { jsonrpc: '2.0', id: null, result: {} })).toEqual(['id']);
  });
});

describe('envelopes', () => {
  it('tells the four kinds of message apart', () => {
    const request = parses(JsonRpcMessageSchema, { jsonrpc: '2.0', id: 1, method: 'ping' });
    const notification = parses(JsonRpcMessageSchema, fixture('cancelled'));
    const result = parses(JsonRpcMessageSchema, fixture('complete-result'));
    const error = parses(JsonRpcMessageSchema, fixture('error-unsupported-version-2026-07-28'));
    expect([isJsonRpcRequest(request), isJsonRpcNotification(notification)]).toEqual([true, true]);
    expect([isJsonRpcResponse(result), isJsonRpcErrorResponse(result)]).toEqual([true, false]);
    expect(isJsonRpcErrorResponse(error)).toBe(true);
  });

  it('requires jsonrpc "2.0" and a string method', () => {
    expect(rejectedAt(JsonRpcMessageSchema, { jsonrpc: '1.0', id: 1, method: 'ping' })).toEqual(['jsonrpc']);
    expect(rejectedAt(JsonRpcMessageSchema, { jsonrpc: '2.0', id: 1, method: 3 })).toEqual(['method']);
  });

  it('rejects params that are not an object', () => {
    expect(rejectedAt(JsonRpcRequestSchema, { jsonrpc: '2.0', id: 1, method: 'x', params: [1] })).toEqual(['params']);
  });

  it('rejects a notification carrying an id', () => {
    expect(rejectedAt(JsonRpcNotificationSchema, { jsonrpc: '2.0', id: 1, method: 'notifications/x' })).toEqual(['id']);
  });

  it('rejects a response with both result and error, and one with neither', () => {
    const both = { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } };
    expect(rejectedAt(JsonRpcMessageSchema, both)).toEqual(['result']);
    expect(rejectedAt(JsonRpcMessageSchema, { jsonrpc: '2.0', id: 1 })).toEqual(['result']);
  });

  it('requires an integer error code and a string message', () => {
    const paths = rejectedAt(JsonRpcErrorResponseSchema, { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 2 } });
    expect(paths).toEqual(['error.code', 'error.message']);
  });

  it('keeps unknown fields of every envelope', () => {
    const message = parses(JsonRpcMessageSchema, { jsonrpc: '2.0', id: 'a', method: 'x', params: {}, trace: 'z' });
    expect(message).toMatchObject({ trace: 'z' });
  });
});

describe('error responses without a usable id', () => {
  it('accepts an error with no id (2025-11-25+)', () => {
    const error = parses(JsonRpcErrorResponseSchema, {
      jsonrpc: '2.0',
      error: { code: ErrorCode.ParseError, message: 'Parse error' },
    });
    expect('id' in error).toBe(false);
  });

  it('reads the JSON-RPC null id of a parse error as "no id"', () => {
    const error = parses(JsonRpcMessageSchema, fixture('error-parse-null-id'));
    expect(error).toEqual({ jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: 'Parse error' } });
  });
});

describe('batches (2025-03-26)', () => {
  it('parses a mixed batch', () => {
    expect(parses(JsonRpcBatchSchema, fixture('batch-2025-03-26'))).toHaveLength(3);
  });

  it('rejects an empty batch and names the broken member', () => {
    rejectedAt(JsonRpcBatchSchema, []);
    expect(
      rejectedAt(JsonRpcBatchSchema, [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: null },
      ]),
    ).toEqual(['1.id', '1.result']);
  });
});

describe('isResultResponse, the channel fast path', () => {
  const good = { jsonrpc: '2.0', id: 7, result: { content: [] } };
  const variants: Record<string, unknown>[] = [
    good,
    { ...good, id: 'abc' },
    { ...good, extra: true },
    { ...good, jsonrpc: '1.0' },
    { ...good, id: 1.5 },
    { ...good, id: null },
    { ...good, id: Number.NaN },
    { ...good, result: [] },
    { ...good, result: null },
    { ...good, result: 'text' },
    { ...good, error: { code: 1, message: 'm' } },
    { ...good, error: undefined },
    { jsonrpc: '2.0', result: {} },
    { jsonrpc: '2.0', id: 1 },
  ];

  it('accepts only what JsonRpcResultResponseSchema accepts', () => {
    for (const message of variants) {
      if (isResultResponse(message))
        expect(v.is(JsonRpcResultResponseSchema, message), JSON.stringify(message)).toBe(true);
    }
  });

  it('takes the common well-formed response without the schema', () => {
    expect(isResultResponse(good)).toBe(true);
    expect(isResultResponse({ ...good, id: 'abc' })).toBe(true);
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Client,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitationHandler,
  ElicitRequestParams,
  ElicitResult,
  ReadResourceResult,
  Root,
  RootsOption,
  SamplingHandler,
  Subscription,
} from '../../src/index.js';
import * as core from '../../src/index.js';
import type { ReadResourceWireResult } from '../../src/protocol/index.js';
import * as protocol from '../../src/protocol/index.js';
import * as transport from '../../src/transport/index.js';

// The type checks here run in `typecheck`; the value checks in vitest.
describe('the public API names', () => {
  it('a handler is typed from the main entry alone', () => {
    expectTypeOf<Parameters<SamplingHandler>[0]>().toEqualTypeOf<CreateMessageRequestParams>();
    expectTypeOf<Awaited<ReturnType<SamplingHandler>>>().toEqualTypeOf<CreateMessageResult>();
    expectTypeOf<Parameters<ElicitationHandler>[0]>().toEqualTypeOf<ElicitRequestParams>();
    expectTypeOf<Awaited<ReturnType<ElicitationHandler>>>().toEqualTypeOf<ElicitResult>();
    expectTypeOf<readonly Root[]>().toMatchTypeOf<RootsOption>();
    expect(core.ErrorCode).toBe(protocol.ErrorCode);
  });

  it('ReadResourceResult is what readResource returns; the wire shape is ReadResourceWireResult', () => {
    expectTypeOf<Awaited<ReturnType<Client['readResource']>>>().toEqualTypeOf<ReadResourceResult>();
    expectTypeOf<ReadResourceResult['contents'][number]['blob']>().toEqualTypeOf<Uint8Array | undefined>();
    expectTypeOf<ReadResourceWireResult['contents'][number]>().toHaveProperty('uri');
    expectTypeOf<ReadResourceWireResult>().not.toEqualTypeOf<ReadResourceResult>();
    expect(protocol.ReadResourceResultSchema).toBeDefined();
  });

  it('Subscription is a type of the main entry, made only by Client.listen()', () => {
    expectTypeOf<ReturnType<Client['listen']>>().toEqualTypeOf<Promise<Subscription>>();
    expect('Subscription' in core).toBe(false);
  });

  it('MessageQueue and isLoopback come from the transport entry only', () => {
    expect(typeof transport.MessageQueue).toBe('function');
    expect(typeof transport.isLoopback).toBe('function');
    expect('MessageQueue' in core).toBe(false);
    expect('isLoopback' in core).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { supportedVersionsIn } from '../../src/protocol/error-codes.js';
import {
  ErrorCode,
  isImplementationDefinedErrorCode,
  isReservedMcpErrorCode,
  JsonRpcErrorResponseSchema,
  MissingRequiredClientCapabilityErrorDataSchema,
  PRERELEASE_ERROR_CODE_ALIASES,
  UnsupportedProtocolVersionErrorDataSchema,
  UrlElicitationRequiredErrorDataSchema,
} from '../../src/protocol/index.js';
import { fixture, parses, rejectedAt } from './helpers.js';

const errorData = (name: string): unknown => parses(JsonRpcErrorResponseSchema, fixture(name)).error.data;

describe('error codes', () => {
  it('has the JSON-RPC and MCP codes', () => {
    expect(ErrorCode).toMatchObject({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ResourceNotFound: -32002,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      UrlElicitationRequired: -32042,
    });
  });

  it('maps the pre-release numbers to the final codes', () => {
    expect(PRERELEASE_ERROR_CODE_ALIASES[-32004]).toBe(ErrorCode.UnsupportedProtocolVersion);
  });

  it('classifies the implementation-defined and reserved ranges', () => {
    expect([-32000, -32019, -32020].map(isImplementationDefinedErrorCode)).toEqual([true, true, false]);
    expect([-32020, -32099, -32100, -32019].map(isReservedMcpErrorCode)).toEqual([true, true, false, false]);
  });
});

describe('structured error data', () => {
  it('reads supported and requested versions', () => {
    const data = parses(UnsupportedProtocolVersionErrorDataSchema, errorData('error-unsupported-version-2026-07-28'));
    expect(data).toEqual({ supported: ['2026-07-28', '2025-11-25'], requested: '2027-01-01' });
    expect(parses(UnsupportedProtocolVersionErrorDataSchema, { supported: ['2024-11-05'] }).requested).toBeUndefined();
    expect(rejectedAt(UnsupportedProtocolVersionErrorDataSchema, { supported: '2025-11-25' })).toEqual(['supported']);
  });

  it('reads the supported versions out of a version refusal, or nothing from data of another shape', () => {
    expect(supportedVersionsIn(errorData('error-unsupported-version-2026-07-28'))).toEqual([
      '2026-07-28',
      '2025-11-25',
    ]);
    expect(supportedVersionsIn({ supported: ['2024-11-05'], extra: true })).toEqual(['2024-11-05']);
    for (const data of [undefined, null, 'x', { supported: '2025-11-25' }, { supported: [1] }, { requested: 'x' }]) {
      expect(supportedVersionsIn(data)).toBeUndefined();
    }
  });

  it('reads the required client capabilities', () => {
    const data = parses(
      MissingRequiredClientCapabilityErrorDataSchema,
      errorData('error-missing-capability-2026-07-28'),
    );
    expect(data.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    expect(rejectedAt(MissingRequiredClientCapabilityErrorDataSchema, { requiredCapabilities: { roots: 1 } })).toEqual([
      'requiredCapabilities.roots',
    ]);
  });

  it('reads URL elicitations, each needing an elicitationId (2025-11-25)', () => {
    const data = parses(UrlElicitationRequiredErrorDataSchema, errorData('error-url-elicitation-required-2025-11-25'));
    expect(data.elicitations[0]?.elicitationId).toBe('550e8400-e29b');
    const withoutId = { elicitations: [{ mode: 'url', url: 'https://x.example', message: 'm' }] };
    expect(rejectedAt(UrlElicitationRequiredErrorDataSchema, withoutId)).toEqual(['elicitations.0.elicitationId']);
  });
});

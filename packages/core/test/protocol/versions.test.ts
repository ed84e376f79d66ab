import { describe, expect, it } from 'vitest';
import {
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/protocol/index.js';

describe('protocol versions', () => {
  it('lists every revision newest first', () => {
    expect(PROTOCOL_VERSIONS).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect([...PROTOCOL_VERSIONS].sort().reverse()).toEqual([...PROTOCOL_VERSIONS]);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(PROTOCOL_VERSIONS);
  });

  it('names the newest revision of each era', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
    expect([...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS]).toEqual([...PROTOCOL_VERSIONS]);
  });

  it('recognises supported versions and nothing else', () => {
    expect(isSupportedProtocolVersion('2025-06-18')).toBe(true);
    expect(isSupportedProtocolVersion('2027-01-01')).toBe(false);
    expect(isSupportedProtocolVersion('')).toBe(false);
  });

  it('tells the stateless era from the handshake era', () => {
    expect(isModernProtocolVersion('2026-07-28')).toBe(true);
    expect(LEGACY_PROTOCOL_VERSIONS.map(isModernProtocolVersion)).toEqual([false, false, false, false]);
  });
});

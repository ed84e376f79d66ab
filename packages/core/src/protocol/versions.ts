import * as v from 'valibot';

/**
 * Every protocol revision this SDK speaks, newest first. The order is the
 * client's preference when it negotiates (2024-11-05 §Lifecycle, 2026-07-28 §Versioning).
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** One of the revisions in {@link PROTOCOL_VERSIONS}. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** {@link PROTOCOL_VERSIONS} widened to `string[]`, for comparing against what a server lists. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = PROTOCOL_VERSIONS;

/** The newest revision: stateless, no handshake (2026-07-28). */
export const LATEST_PROTOCOL_VERSION = '2026-07-28' satisfies ProtocolVersion;

/** The newest revision of the handshake era, offered when a server turns out to be legacy. */
export const LATEST_LEGACY_PROTOCOL_VERSION = '2025-11-25' satisfies ProtocolVersion;

/** Revisions that open with `initialize` and keep a session (2024-11-05 to 2025-11-25). */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Revisions with per-request `_meta`, `server/discover` and MRTR (2026-07-28). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** A revision of the handshake era. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** A revision of the stateless era. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Accepts exactly the revisions this SDK implements. */
export const ProtocolVersionSchema = v.picklist(PROTOCOL_VERSIONS);

/** True when this SDK implements `version`; a server may name versions we do not know. */
export function isSupportedProtocolVersion(version: string): version is ProtocolVersion {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** True for the stateless era (2026-07-28), where every request carries its own `_meta`. */
export function isModernProtocolVersion(version: string): boolean {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

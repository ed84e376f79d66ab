import { HttpError } from '../../errors/http-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { UnsupportedVersionError } from '../../errors/unsupported-version-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { isModernProtocolVersion, LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import { type Transport, transportHooks } from '../../transport/transport.js';
import { LruMap } from '../../util/lru-map.js';
import { DEFAULT_ERA_CACHE_ENTRIES, type EraCache, type EraKind } from '../options.js';
import type { ConnectContext, Era, ServerIdentity } from './era.js';

/**
 * The verdicts of every client not given its own `eraCache`: bounded, so a
 * program that talks to many servers (or a server that keeps changing its
 * URL) does not grow it without end.
 */
export const sharedEraCache: EraCache = new LruMap<string, EraKind>(DEFAULT_ERA_CACHE_ENTRIES);

/** Modern-only errors: the server is modern, so falling back would be wrong (2026-07-28 versioning). */
const MODERN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** The eras a client may speak, one of each kind. */
export interface Eras {
  readonly legacy: Era;
  readonly modern: Era;
}

export interface EraChoice {
  readonly era: Era;
  readonly server: ServerIdentity;
}

/**
 * Finds the era the server speaks (2026-07-28 versioning, "era detection"): a
 * modern `server/discover` first; a result or a recognised modern error means
 * modern, anything else (an unknown method, a 4xx, silence within the probe
 * timeout) means legacy, and the `initialize` handshake follows on the same
 * connection. A pinned version skips the probe. The verdict is cached per server;
 * when a cached verdict fails, the other era is tried once.
 */
export async function chooseEra(
  transport: Transport,
  context: ConnectContext,
  eras: Eras,
  { probeTimeout, cache }: { readonly probeTimeout: number; readonly cache: EraCache },
): Promise<EraChoice> {
  const pinned = context.protocolVersion;
  if (pinned) {
    const era = eraFor(pinned, eras);
    return { era, server: await era.connect(context) };
  }
  // Only the server is met again: a transport object connects once (its messages() are read once).
  const key = transportHooks(transport).serverKey;
  const cached = key === undefined ? undefined : cache.get(key);
  const first = cached === 'legacy' ? eras.legacy : eras.modern;
  const timeout = Math.min(probeTimeout, context.call.timeout ?? probeTimeout);
  const probe = first === eras.modern ? { ...context, call: { ...context.call, timeout } } : context;
  let era = first;
  let server: ServerIdentity;
  try {
    server = await first.connect(probe);
  } catch (error) {
    if (first === eras.modern && !speaksLegacy(error)) throw error;
    era = first === eras.modern ? eras.legacy : eras.modern;
    server = await era.connect(context);
  }
  if (key !== undefined) cache.set(key, era.kind);
  return { era, server };
}

/** The era that speaks `protocolVersion`: a pinned version's, or a resumed session's. */
export function eraFor(protocolVersion: string, eras: Eras): Era {
  return isModernProtocolVersion(protocolVersion) ? eras.modern : eras.legacy;
}

/**
 * Whether a failed modern probe leaves the legacy handshake worth trying: the
 * server answered, but not as a modern server would (an error that is not a
 * modern one, an HTTP refusal, a malformed answer), or it kept silent past the
 * probe timeout. A connection that failed or a caller's abort is no verdict.
 */
function speaksLegacy(error: unknown): boolean {
  if (error instanceof UnsupportedVersionError) {
    // A dual-era server whose only version in common with us is a legacy one.
    return LEGACY_PROTOCOL_VERSIONS.some((version) => error.supported.includes(version));
  }
  if (error instanceof RpcError) return !MODERN_CODES.has(error.code);
  if (error instanceof HttpError || error instanceof ProtocolError) return true;
  return error instanceof DOMException && error.name === 'TimeoutError';
}

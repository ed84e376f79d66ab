import * as v from 'valibot';
import { ClientCapabilitiesSchema } from './capabilities.js';

/**
 * JSON-RPC and MCP error codes across all revisions (checklist §11).
 * `ResourceNotFound` is emitted by 2024-11-05–2025-11-25 servers; 2026-07-28
 * servers use `InvalidParams` instead, so accept both as "not found".
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2024-11-05–2025-11-25; reserved afterwards. */
  ResourceNotFound: -32002,
  /** 2026-07-28, HTTP 400: headers disagree with the body, or are missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28, HTTP 400: `data.requiredCapabilities` names what to declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28, HTTP 400: `data.supported` lists the versions to retry with. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25 only: `data.elicitations` lists URL flows to run first. Its schema is in `elicitation.ts`. */
  UrlElicitationRequired: -32042,
  /** The spec's example code for a user refusing a legacy `sampling/createMessage`. */
  UserRejected: -1,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * MCP Apps 2026-01-26: the code a host answers a view's request with when it
 * refuses it (a link, a message, a tool call its policy denied). Apart from
 * `ErrorCode` so that only `@mcp/core/apps` carries it.
 */
export const APP_REQUEST_REFUSED = -32000;

/**
 * Pre-release numbers of the three 2026-07-28 codes, renumbered before the
 * revision was final. Never emitted; a client may tolerate them during migration.
 */
export const PRERELEASE_ERROR_CODE_ALIASES: Readonly<Record<number, ErrorCode>> = {
  [-32001]: ErrorCode.HeaderMismatch,
  [-32003]: ErrorCode.MissingRequiredClientCapability,
  [-32004]: ErrorCode.UnsupportedProtocolVersion,
};

/** -32000…-32019: implementation-defined; no cross-implementation meaning may be assumed (2026-07-28). */
export function isImplementationDefinedErrorCode(code: number): boolean {
  return code <= -32000 && code >= -32019;
}

/** -32020…-32099: reserved for codes the MCP spec defines (2026-07-28). */
export function isReservedMcpErrorCode(code: number): boolean {
  return code <= -32020 && code >= -32099;
}

/**
 * `data` of `UnsupportedProtocolVersion` (-32022), and of a legacy `initialize`
 * rejected with -32602. `requested` is required by 2026-07-28 but absent from
 * some legacy servers, so it is optional here.
 */
export const UnsupportedProtocolVersionErrorDataSchema = v.looseObject({
  supported: v.array(v.string()),
  requested: v.optional(v.string()),
});
/** The output type of {@link UnsupportedProtocolVersionErrorDataSchema}: a value it parsed. */
export type UnsupportedProtocolVersionErrorData = v.InferOutput<typeof UnsupportedProtocolVersionErrorDataSchema>;

/**
 * The versions a refusal's `data` lists (-32022, or -32602 from a legacy
 * `initialize`), or `undefined` when the data is not that shape: one reading of
 * it for both eras.
 */
export function supportedVersionsIn(data: unknown): string[] | undefined {
  const parsed = v.safeParse(UnsupportedProtocolVersionErrorDataSchema, data);
  return parsed.success ? parsed.output.supported : undefined;
}

/** `data` of `MissingRequiredClientCapability` (-32021): the capabilities to declare before retrying. */
export const MissingRequiredClientCapabilityErrorDataSchema = v.looseObject({
  requiredCapabilities: ClientCapabilitiesSchema,
});
/** The output type of {@link MissingRequiredClientCapabilityErrorDataSchema}: a value it parsed. */
export type MissingRequiredClientCapabilityErrorData = v.InferOutput<
  typeof MissingRequiredClientCapabilityErrorDataSchema
>;

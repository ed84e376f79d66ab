import * as v from 'valibot';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { ImplementationSchema } from './implementation.js';
import { resultEntries } from './result.js';

/**
 * The server's answer to `initialize`. `protocolVersion` may be any string: a
 * version we do not implement is a reason to disconnect, decided by the caller,
 * not a malformed message. `instructions` appears in 2025-03-26.
 */
export const InitializeResultSchema = v.looseObject({
  ...resultEntries,
  protocolVersion: v.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: v.optional(v.string()),
});
/** The output type of {@link InitializeResultSchema}: a value it parsed. */
export type InitializeResult = v.InferOutput<typeof InitializeResultSchema>;

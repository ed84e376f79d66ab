import * as v from 'valibot';
import { cacheEntries } from './cache.js';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { resultEntries } from './result.js';

/**
 * The answer to `server/discover` (2026-07-28 §Discovery): the versions the
 * server speaks, its capabilities, optional instructions, and cache hints.
 * `supportedVersions` may list legacy revisions on a dual-era server.
 */
export const DiscoverResultSchema = v.looseObject({
  ...resultEntries,
  ...cacheEntries,
  supportedVersions: v.array(v.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: v.optional(v.string()),
});
/** The output type of {@link DiscoverResultSchema}: a value it parsed. */
export type DiscoverResult = v.InferOutput<typeof DiscoverResultSchema>;

import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { requireSkills } from './extension.js';
import { collectEntries } from './paged-entries.js';
import { ListSkillsPageSchema, type SkillEntry, SkillEntrySchema } from './schemas.js';

/** Options of {@link listSkills}. */
export interface ListSkillsOptions extends CallOptions {
  /** Pages followed before the listing fails with a `LimitError`, so a looping cursor cannot hold the call (default 100). */
  readonly maxPages?: number;
  /** Entries gathered over all pages before the listing fails with a `LimitError`, counted as the server sent them (default 10000). */
  readonly maxListItems?: number;
  /**
   * Characters of JSON text read over all pages before the listing fails with a `LimitError`, close to their
   * bytes (default 16777216: 16 MiB), as `limits.maxListBytes` counts them on a Client.
   */
  readonly maxListBytes?: number;
  /** Told about each entry left out for breaking the entry schema, with why. */
  readonly onInvalidEntry?: (entry: unknown, reason: string) => void;
}

/**
 * Every skill the server lists (`skills/list`, SEP-2640 Enumeration), following
 * `nextCursor` to the end. Reads no skill file: a host builds its registry from
 * the entries alone and loads a skill only when it is needed (`loadSkill`). An
 * empty or partial listing does not prove the server has no other skills.
 * Throws `CapabilityError` when the server did not declare the extension.
 */
export async function listSkills(client: Client, options: ListSkillsOptions = {}): Promise<SkillEntry[]> {
  requireSkills(client, 'skills/list');
  return collectEntries(
    client,
    'skills/list',
    {},
    ListSkillsPageSchema,
    (page) => page.skills,
    SkillEntrySchema,
    options,
  );
}

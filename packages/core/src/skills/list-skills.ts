import * as v from 'valibot';
import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { collectPages, type Page } from '../client/pagination.js';
import { resultParser } from '../client/results/decode.js';
import { requireSkills } from './extension.js';
import { ListSkillsPageSchema, type SkillEntry, SkillEntrySchema } from './schemas.js';

/** Options of {@link listSkills}. */
export interface ListSkillsOptions extends CallOptions {
  /** Pages followed before the listing fails with a `LimitError`, so a looping cursor cannot hold the call (default 100). */
  readonly maxPages?: number;
  /** Told about each entry left out for breaking the entry schema, with why. */
  readonly onInvalidEntry?: (entry: unknown, reason: string) => void;
}

export const DEFAULT_MAX_SKILL_PAGES = 100;

/**
 * Every skill the server lists (`skills/list`, SEP-2640 Enumeration), following
 * `nextCursor` to the end. Reads no skill file: a host builds its registry from
 * the entries alone and loads a skill only when it is needed (`loadSkill`). An
 * empty or partial listing does not prove the server has no other skills.
 * Throws `CapabilityError` when the server did not declare the extension.
 */
export async function listSkills(client: Client, options: ListSkillsOptions = {}): Promise<SkillEntry[]> {
  requireSkills(client, 'skills/list');
  const { maxPages = DEFAULT_MAX_SKILL_PAGES, onInvalidEntry, ...call } = options;
  const parse = resultParser('skills/list', ListSkillsPageSchema);
  return collectPages(
    'skills/list',
    maxPages,
    async (cursor): Promise<Page<SkillEntry>> => {
      const page = parse(await client.request('skills/list', cursor === undefined ? {} : { cursor }, call));
      const items: SkillEntry[] = [];
      for (const raw of page.skills) {
        const entry = v.safeParse(SkillEntrySchema, raw);
        if (entry.success) items.push(entry.output);
        else onInvalidEntry?.(raw, v.summarize(entry.issues));
      }
      return { items, nextCursor: page.nextCursor };
    },
    'maxPages',
  );
}

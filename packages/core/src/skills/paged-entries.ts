import * as v from 'valibot';
import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { collectPages, type Page } from '../client/pagination.js';
import { resultParser } from '../client/results/decode.js';

/** Pages a skills list method follows by default before it fails with a `LimitError`. */
export const DEFAULT_MAX_SKILL_PAGES = 100;

/** How {@link collectEntries} bounds and reports a listing. */
export interface EntryListing extends CallOptions {
  readonly maxPages?: number;
  readonly onInvalidEntry?: (entry: unknown, reason: string) => void;
}

/**
 * Every item of a paged extension method (`skills/list`, `resources/directory/read`),
 * following `nextCursor` to the end. The page is validated at the edge (a bad page
 * is a `ProtocolError`); then each item on its own against `itemSchema`, so one bad
 * item is left out and reported to `onInvalidEntry` while the rest arrive. More
 * than `maxPages` pages is a `LimitError` naming `'maxPages'`, the option as the
 * skills functions take it.
 */
export async function collectEntries<
  P extends v.GenericSchema<unknown, { readonly nextCursor?: string | undefined }>,
  S extends v.GenericSchema,
>(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  pageSchema: P,
  itemsOf: (page: v.InferOutput<P>) => readonly unknown[],
  itemSchema: S,
  options: EntryListing,
): Promise<v.InferOutput<S>[]> {
  const { maxPages = DEFAULT_MAX_SKILL_PAGES, onInvalidEntry, ...call } = options;
  const parse = resultParser(method, pageSchema);
  return collectPages(
    method,
    maxPages,
    async (cursor): Promise<Page<v.InferOutput<S>>> => {
      const page = parse(await client.request(method, cursor === undefined ? params : { ...params, cursor }, call));
      const items: v.InferOutput<S>[] = [];
      for (const raw of itemsOf(page)) {
        const item = v.safeParse(itemSchema, raw);
        if (item.success) items.push(item.output);
        else onInvalidEntry?.(raw, v.summarize(item.issues));
      }
      return { items, nextCursor: page.nextCursor };
    },
    'maxPages',
  );
}

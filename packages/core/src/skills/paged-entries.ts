import * as v from 'valibot';
import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { collectPages, type Page } from '../client/pagination.js';
import { resultParser } from '../client/results/decode.js';
import type { CallBounds } from '../client/rpc/rpc-channel.js';

/** Pages a skills list method follows by default before it fails with a `LimitError`. */
export const DEFAULT_MAX_SKILL_PAGES = 100;

/** How {@link collectEntries} bounds and reports a listing. */
export interface EntryListing extends CallOptions {
  readonly maxPages?: number;
  readonly maxListItems?: number;
  readonly maxListBytes?: number;
  readonly onInvalidEntry?: (entry: unknown, reason: string) => void;
}

/**
 * Every item of a paged extension method (`skills/list`, `resources/directory/read`),
 * following `nextCursor` to the end. Each page is validated at the edge (a bad
 * page is a `ProtocolError`); then, once every page arrived, each item on its
 * own against `itemSchema`, so one bad item is left out and reported to
 * `onInvalidEntry` while the rest arrive. More than `maxPages` pages,
 * `maxListItems` items (valid or not) or `maxListBytes` characters over all
 * pages is a `LimitError` naming that option as the skills functions take it
 * (the defaults of a Client's `limits`, but for 100 pages).
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
  const { maxPages = DEFAULT_MAX_SKILL_PAGES, maxListItems, maxListBytes, onInvalidEntry, ...call } = options;
  const parse = resultParser(method, pageSchema);
  // Every entry the server sent counts against maxListItems, valid or not; each is checked once all arrived.
  const entries = await collectPages(
    method,
    { maxPages, maxListItems, maxListBytes },
    async (cursor, _restart, onReceived): Promise<Page<unknown>> => {
      // Client.request hands its options to the Session as they are, so the page's size reaches the count.
      const bounds: CallBounds = { ...call, onReceived };
      const page = parse(await client.request(method, cursor === undefined ? params : { ...params, cursor }, bounds));
      return { items: itemsOf(page), nextCursor: page.nextCursor };
    },
    '',
  );
  const items: v.InferOutput<S>[] = [];
  for (const raw of entries) {
    const item = v.safeParse(itemSchema, raw);
    if (item.success) items.push(item.output);
    else onInvalidEntry?.(raw, v.summarize(item.issues));
  }
  return items;
}

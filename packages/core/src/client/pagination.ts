import { LimitError } from '../errors/limit-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { DEFAULT_MAX_LIST_BYTES, DEFAULT_MAX_LIST_ITEMS, DEFAULT_MAX_PAGES } from './options.js';

/** One page of a list result. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

/** How far one listing may go (a Client's `limits` fit): pages, and items and bytes over all its pages. */
export interface ListLimits {
  readonly maxPages?: number | undefined;
  readonly maxListItems?: number | undefined;
  readonly maxListBytes?: number | undefined;
}

/**
 * Fetches one page: the cursor to ask with (undefined for the first), whether
 * the listing started over, and `received`, to be told the size of each answer
 * the transport reports (`CallBounds.onReceived`).
 */
export type FetchPage<T> = (
  cursor: string | undefined,
  restart: boolean,
  received: (size: number) => void,
) => Promise<Page<T>>;

/**
 * Follows `nextCursor` until the server stops sending one. An empty string is a
 * cursor like any other (only absence ends the list). Each bound of `limits`
 * (a Client's default where one is missing) holds over the whole listing, so
 * a server that loops its cursor, or whose pages (each up to `maxMessageBytes`)
 * add up to more than a program can hold, can neither hold a call forever nor
 * fill memory: more than `maxPages` pages, more than `maxListItems` items, or
 * answers longer than `maxListBytes` together is a `LimitError` naming that
 * option as the caller writes it (`prefix`: `limits.` on a Client). Items are
 * counted as the server sent them; bytes as the transport reported them (a
 * page the TTL cache serves counts none: it takes no new memory).
 *
 * A `-32602` to a page asked for with a cursor is the server refusing that
 * cursor (pagination § Error Handling), so the listing starts over from the
 * first page, once (2026-07-28 caching: discard the cached pages and fetch from
 * the beginning): the pages gathered so far are dropped, every bound counts
 * afresh, and `fetchPage` is told `restart` with that first page, so it can drop
 * what it cached of the list. In the listing started over (`restart`), such an
 * error stands.
 */
export async function collectPages<T>(
  method: string,
  limits: ListLimits | undefined,
  fetchPage: FetchPage<T>,
  prefix = 'limits.',
  restart = false,
): Promise<T[]> {
  const maxPages = limits?.maxPages ?? DEFAULT_MAX_PAGES;
  const maxItems = limits?.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
  const maxBytes = limits?.maxListBytes ?? DEFAULT_MAX_LIST_BYTES;
  const over = (option: string, value: number, what: string) =>
    new LimitError(prefix + option, value, `${method}: the server sent more than ${value} ${what}`);
  const all: T[] = [];
  let bytes = 0;
  const received = (size: number) => {
    bytes += size;
  };
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    let result: Page<T>;
    try {
      result = await fetchPage(cursor, restart && !page, received);
    } catch (error) {
      if (restart || !page || !(error instanceof RpcError) || error.code !== ErrorCode.InvalidParams) throw error;
      return collectPages(method, limits, fetchPage, prefix, true);
    }
    if (all.length + result.items.length > maxItems) throw over('maxListItems', maxItems, 'items');
    if (bytes > maxBytes) throw over('maxListBytes', maxBytes, 'bytes');
    // One push per item: spreading a page of a few hundred thousand overflows the call's arguments.
    for (const item of result.items) all.push(item);
    if (result.nextCursor === undefined) return all;
    cursor = result.nextCursor;
  }
  throw over('maxPages', maxPages, 'pages');
}

/** One page of a list result. */
export function page<T>(items: readonly T[], nextCursor: string | undefined): Page<T> {
  return { items, nextCursor };
}

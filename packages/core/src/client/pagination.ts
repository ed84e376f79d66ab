import { LimitError } from '../errors/limit-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { ErrorCode } from '../protocol/error-codes.js';

/** One page of a list result. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

/**
 * Follows `nextCursor` until the server stops sending one. An empty string is a
 * cursor like any other (only absence ends the list). More than `maxPages` pages
 * is a `LimitError` naming `limit`, the option that set it, so a server that
 * loops its cursor cannot hold a call forever.
 *
 * A `-32602` to a page asked for with a cursor is the server refusing that
 * cursor (pagination § Error Handling), so the listing starts over from the
 * first page, once (2026-07-28 caching: discard the cached pages and fetch from
 * the beginning): the pages gathered so far are dropped, `maxPages` counts
 * afresh, and `fetchPage` is told `restart` with that first page, so it can drop
 * what it cached of the list. In the listing started over (`restart`), such an
 * error stands.
 */
export async function collectPages<T>(
  method: string,
  maxPages: number,
  fetchPage: (cursor: string | undefined, restart: boolean) => Promise<Page<T>>,
  limit = 'limits.maxPages',
  restart = false,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    let result: Page<T>;
    try {
      result = await fetchPage(cursor, restart && !page);
    } catch (error) {
      if (restart || !page || !(error instanceof RpcError) || error.code !== ErrorCode.InvalidParams) throw error;
      return collectPages(method, maxPages, fetchPage, limit, true);
    }
    all.push(...result.items);
    if (result.nextCursor === undefined) return all;
    cursor = result.nextCursor;
  }
  throw new LimitError(limit, maxPages, `${method}: the server sent more than ${maxPages} pages`);
}

/** One page of a list result. */
export function page<T>(items: readonly T[], nextCursor: string | undefined): Page<T> {
  return { items, nextCursor };
}

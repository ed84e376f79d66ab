import { LimitError } from '../errors/limit-error.js';

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
 */
export async function collectPages<T>(
  method: string,
  maxPages: number,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  limit = 'limits.maxPages',
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const { items, nextCursor } = await fetchPage(cursor);
    all.push(...items);
    if (nextCursor === undefined) return all;
    cursor = nextCursor;
  }
  throw new LimitError(limit, maxPages, `${method}: the server sent more than ${maxPages} pages`);
}

/** One page of a list result. */
export function page<T>(items: readonly T[], nextCursor: string | undefined): Page<T> {
  return { items, nextCursor };
}

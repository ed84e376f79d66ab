import { INVALID_PARAMS, rpcError } from './rpc-errors.mjs';

/** Items per page unless `--page-size` says otherwise. */
export const DEFAULT_PAGE_SIZE = 5;

const CURSOR_PREFIX = 'offset:';

/**
 * One page of a list, for every paginated `*\/list` method (2025-11-25,
 * utilities/pagination). The cursor is base64 of `offset:<n>`: opaque to
 * clients, which must not build or parse it, yet easy to read in a trace.
 * An absent `nextCursor` ends the listing; a cursor we did not issue is -32602.
 * @template T
 * @param {readonly T[]} items the whole list, in a stable order
 * @param {string | undefined} cursor the request's `params.cursor`
 * @param {number} pageSize
 * @returns {{ page: T[], nextCursor?: string }}
 */
export function paginate(items, cursor, pageSize) {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, items.length);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: btoa(`${CURSOR_PREFIX}${end}`) } : { page };
}

/**
 * @param {string} cursor
 * @param {number} length
 * @returns {number}
 */
function decodeCursor(cursor, length) {
  let text = '';
  try {
    text = atob(cursor);
  } catch {
    // Not base64: fall through to the invalid-cursor error below.
  }
  const offset = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
  if (!Number.isInteger(offset) || offset < 0 || offset > length) {
    throw rpcError(INVALID_PARAMS, `Invalid cursor: ${cursor}`);
  }
  return offset;
}

import { StoreError } from './store-error.js';

/**
 * How a store that keeps text (Redis, a file, localStorage) writes `value`:
 * as `JSON.stringify` writes it. A value it cannot write at all (a bigint, a
 * cycle, a function) is refused with a `StoreError`.
 */
export function encodeStoreValue(key: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StoreError('invalid_value', key, `the value for ${key} is not plain JSON`, { cause: error });
  }
  if (text === undefined) throw new StoreError('invalid_value', key, `the value for ${key} is not plain JSON`);
  return text;
}

/**
 * The value a store wrote as `text` under `key`. Text that is not JSON was
 * written by someone else: a `StoreError` (`invalid_value`), never a value
 * that is half read.
 */
export function decodeStoreValue(key: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreError('invalid_value', key, `what is stored under ${key} is not JSON`, { cause: error });
  }
}

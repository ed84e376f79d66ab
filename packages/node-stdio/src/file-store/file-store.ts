import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decodeStoreValue,
  encodeStoreValue,
  type LeaseOptions,
  leaseBounds,
  type Store,
  StoreError,
} from '@mcp/core/connections';
import { takeLock } from '../private-files/lock-file.js';
import { PrivateDirectory } from '../private-files/private-directory.js';
import type { PrivatePlace } from '../private-files/private-files.js';
import { keyFileName } from './key-file-name.js';

/** Options of {@link FileStore}: the bounds of its lock files. */
export interface FileStoreOptions extends LeaseOptions {}

/**
 * A store in one directory, one JSON file per key, for Node: what a CLI, a
 * desktop app or a server on one machine keeps between runs, shared by every
 * process that opens the same directory. `update` is atomic across them.
 *
 * Files are named from their key so that no key reaches outside the directory
 * (see keyFileName). The directory and its files get the checks of the `mcp bridge`
 * token store: the directory is created 0700, narrowed to 0700, or refused when
 * it is a link, another user's, or writable by others; each file is opened
 * without following a link and refused, before a byte is parsed, unless it is
 * a regular file of ours, mode 0600, with one name (a `StoreError`,
 * `untrusted`). Writes go to a temporary file renamed into place, so a crash
 * never leaves half a value. A file that is not JSON reads as a `StoreError`
 * (`invalid_value`); `delete` clears it.
 *
 * `update` holds `<file>.lock` (created exclusively) while `change` runs,
 * waiting at most `lockWaitMs` for another holder. A lock file older than
 * `leaseMs` was left by a process that died and is taken over; a `change` that
 * ran past `leaseMs`, or whose lock was taken over meanwhile, has its result
 * refused (`lease_expired`).
 */
export class FileStore implements Store {
  /** The directory the files are in. */
  readonly directory: string;
  readonly #files: PrivateDirectory;
  readonly #leaseMs: number;
  readonly #lockWaitMs: number;

  /** A store in `directory` (created 0700 when missing). */
  constructor(directory: string, options: FileStoreOptions = {}) {
    this.directory = directory;
    ({ leaseMs: this.#leaseMs, lockWaitMs: this.#lockWaitMs } = leaseBounds(options, 'FileStoreOptions'));
    this.#files = new PrivateDirectory(directory, placeOf(''));
  }

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<unknown> {
    const text = await this.#files.read(keyFileName(key), placeOf(key)).catch(refusedFor(key));
    return text === undefined ? undefined : decodeStoreValue(key, text);
  }

  /** Stores `value` as JSON under `key`; undefined deletes it. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.delete(key);
    await this.#files.write(keyFileName(key), encodeStoreValue(key, value)).catch(refusedFor(key));
  }

  /** Removes `key`'s file (a link planted there is removed, never followed). */
  async delete(key: string): Promise<void> {
    await this.#files.ready().catch(refusedFor(key));
    await rm(join(this.directory, keyFileName(key)), { force: true });
  }

  /** Runs `change` on the value under `key` while holding the key's lock file, and stores its result. */
  async update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    await this.#files.ready().catch(refusedFor(key));
    const name = keyFileName(key);
    const lock = await takeLock(join(this.directory, `${name}.lock`), this.#lockWaitMs, {
      staleMs: this.#leaseMs,
      timedOut: (_path, waitMs) =>
        new StoreError(
          'lock_timeout',
          key,
          `another process held the lock of ${key} for more than ${waitMs} ms (lockWaitMs)`,
        ),
    });
    const leaseEnds = Date.now() + this.#leaseMs;
    try {
      const next = await change(await this.get(key));
      const text = next === undefined ? undefined : encodeStoreValue(key, next);
      // Past the lease another process may hold the lock now: its work stands, not ours.
      if (Date.now() > leaseEnds || !(await lock.held())) {
        throw new StoreError(
          'lease_expired',
          key,
          `the update of ${key} ran past its ${this.#leaseMs} ms lease (leaseMs); its result was not stored`,
        );
      }
      if (text === undefined) await rm(join(this.directory, name), { force: true });
      else await this.#files.write(name, text);
      return next;
    } finally {
      // A lock file that could not be removed must not hide the outcome: it goes stale after leaseMs.
      await lock().catch(() => {});
    }
  }
}

/** How the directory checks name a FileStore, with errors about `key`. */
function placeOf(key: string): PrivatePlace {
  return {
    noun: 'file store',
    fileNoun: 'store file',
    option: 'FileStore',
    refuse: (_path, message) => new StoreError('untrusted', key, message),
  };
}

/** Gives a refusal of the directory (found before any key was named) the key it was for. */
function refusedFor(key: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof StoreError && error.code === 'untrusted' && error.key !== key) {
      throw new StoreError('untrusted', key, error.message, { cause: error });
    }
    throw error;
  };
}

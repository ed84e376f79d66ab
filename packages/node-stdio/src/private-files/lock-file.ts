import { randomUUID } from 'node:crypto';
import { link, lstat, open, rename, rm, writeFile } from 'node:fs/promises';
import { OPEN_UNFOLLOWED, ownUid } from './private-files.js';

/** A lock file older than this (ms) was left by a process that died holding it, and is taken over (unless told otherwise). */
export const STALE_LOCK = 30_000;

/** What a lock file holds: its holder's pid and an id of this one taking; a bare pid is an older bridge's lock. */
const LOCK_TEXT = /^\d+(:[0-9a-f-]{36})?$/;
/** The most of a lock file read: a lock holds under 50 bytes, and whatever is longer is not one. */
const LOCK_BYTES = 64;

/** A lock taken: calling it releases the lock; `held()` tells whether it is still ours. */
export type HeldLock = (() => Promise<void>) & {
  /** Whether the lock file still holds this taking's id (not taken over as stale since). */
  held(): Promise<boolean>;
};

/** Options of {@link takeLock}. */
export interface LockOptions {
  /** A lock file untouched this long (ms) was left by a holder that died, and is taken over (default {@link STALE_LOCK}). */
  readonly staleMs?: number;
  /** The error when `waitMs` passed with the lock held by another (default: the bridge's wording). */
  readonly timedOut?: (path: string, waitMs: number) => Error;
}

/**
 * Takes the lock file `path`, waiting at most `waitMs` for another holder.
 * Resolves with its release, which removes the lock only while it still holds
 * this taking's id.
 *
 * The lock is written whole under a name of its own, then linked to `path`,
 * which fails when anything is there: no process ever sees a lock half written.
 * Whatever is at `path` and is not a live lock of ours is stale and is taken
 * over at once: a symbolic link, a directory, a file of another user's or of
 * garbage. A lock file untouched for `staleMs` is stale too.
 */
export async function takeLock(path: string, waitMs: number, options: LockOptions = {}): Promise<HeldLock> {
  const staleMs = options.staleMs ?? STALE_LOCK;
  const deadline = Date.now() + waitMs;
  const id = `${process.pid}:${randomUUID()}`;
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, id, { flag: 'wx', mode: 0o600 });
  try {
    for (;;) {
      try {
        await link(temporary, path);
        const release = () => removeIf(path, async (moved) => (await lockText(moved)) === id);
        return Object.assign(release, { held: async () => (await lockText(path)) === id });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await lstat(path, { bigint: true }).catch(absent);
      if (held === undefined) continue;
      const uid = ownUid();
      const stale =
        !held.isFile() ||
        (uid !== undefined && Number(held.uid) !== uid) ||
        Date.now() - Number(held.mtimeMs) > staleMs ||
        !LOCK_TEXT.test((await lockText(path)) ?? '');
      if (stale) {
        await removeIf(path, sameAs(identity(held)));
        continue;
      }
      if (Date.now() >= deadline) {
        throw options.timedOut?.(path, waitMs) ?? bridgeLocked(path, waitMs);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Removes what is at `path` if `isIt` says that what was there is what the
 * caller meant. Whatever is at `path` is first renamed to a name of its own,
 * which one bridge alone can do, then looked at. Something else (a lock
 * another bridge took since the caller looked) is linked back, which fails
 * only if a third bridge took the empty path in between.
 */
async function removeIf(path: string, isIt: (moved: string) => Promise<boolean>): Promise<void> {
  const moved = `${path}.${randomUUID()}.old`;
  try {
    await rename(path, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!(await isIt(moved))) await link(moved, path).catch(() => {});
  // A directory of another user's may resist: moved off the lock path, it is harmless.
  await rm(moved, { recursive: true, force: true }).catch(() => {});
}

/** Which file system object `stats` describe; a rename keeps all three, a new lock changes at least one. */
function identity(stats: { dev: bigint; ino: bigint; mtimeNs: bigint }): string {
  return `${stats.dev}:${stats.ino}:${stats.mtimeNs}`;
}

function sameAs(expected: string): (moved: string) => Promise<boolean> {
  return async (moved) => {
    const stats = await lstat(moved, { bigint: true }).catch(absent);
    return stats !== undefined && identity(stats) === expected;
  };
}

/** The first bytes of the lock file at `path`, read without following a link; undefined when it cannot be read. */
async function lockText(path: string): Promise<string | undefined> {
  try {
    const handle = await open(path, OPEN_UNFOLLOWED);
    try {
      const buffer = Buffer.alloc(LOCK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, LOCK_BYTES, 0);
      return buffer.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

function bridgeLocked(path: string, waitMs: number): Error {
  return new Error(`the token store is locked by another bridge (${path}) for more than ${waitMs} ms`);
}

function absent(error: NodeJS.ErrnoException): undefined {
  if (error.code !== 'ENOENT') throw error;
  return undefined;
}

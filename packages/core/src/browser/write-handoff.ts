import { timerDelay } from '../util/timers.js';

/**
 * Chromium keeps a copy of localStorage in each tab's process and tells the
 * other tabs of a write a little later, over a channel that is not ordered with
 * Web Locks: a tab granted a key's lock right after another tab wrote the key
 * and let go can still read the old value (e2e/local-storage-store.spec.ts saw it
 * in 5 of 12 refresh races without this: a refresh token spent twice). So each update
 * leaves, as the name of a shared Web Lock held a while, the digest of what it
 * wrote; the Web Locks state is one for the origin, so the next holder finds it
 * and waits until its own localStorage shows that write.
 */

/** How long a write's record is held: the write reaches every tab within milliseconds, and this is far past that. */
export const HANDOFF_MS = 1_000;

/** How often the next holder looks again while its localStorage has not caught up. */
const POLL_MS = 5;

const RECORD = '@mcp/core store wrote ';

/** What an update of one storage entry wrote: its place in the entry's order of updates, and the digest of its text. */
interface WriteRecord {
  readonly seq: number;
  readonly digest: string;
}

/**
 * Waits, at most {@link HANDOFF_MS}, until `read()` shows what the last update of
 * the entry `name` wrote, and returns that update's place in the order (0 when no
 * record is held). Called while holding the entry's lock. A text that never
 * matches is a later write by other means (a plain `set`), which stands.
 */
export async function catchUp(locks: LockManager, name: string, read: () => string | null): Promise<number> {
  const last = latestRecord(await locks.query(), name);
  if (last === undefined) return 0;
  const deadline = Date.now() + HANDOFF_MS;
  while ((await digestOf(read())) !== last.digest && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, timerDelay(POLL_MS)));
  }
  return last.seq;
}

/**
 * Leaves the record of a write of `text` (null: the entry was removed) to the
 * entry `name`, `seq`-th in its order, for the next holder of its lock. Resolves
 * once the record is held, so the caller may then let the entry's lock go.
 */
export async function recordWrite(locks: LockManager, name: string, seq: number, text: string | null): Promise<void> {
  const record = `${RECORD}${seq} ${await digestOf(text)} ${name}`;
  await new Promise<void>((held) => {
    locks
      .request(record, { mode: 'shared' }, () => {
        held();
        return new Promise((resolve) => setTimeout(resolve, timerDelay(HANDOFF_MS)));
      })
      // A record that could not be held only costs the next holder its certainty, never the update.
      .catch(() => held());
  });
}

/** The newest record held for the entry `name`, if any. */
function latestRecord(snapshot: LockManagerSnapshot, name: string): WriteRecord | undefined {
  let latest: WriteRecord | undefined;
  for (const lock of snapshot.held ?? []) {
    const parsed = parseRecord(lock.name ?? '');
    if (parsed?.name === name && (latest === undefined || parsed.seq > latest.seq)) latest = parsed;
  }
  return latest;
}

/** A record's parts, from its lock name; undefined for any other lock. */
function parseRecord(lockName: string): (WriteRecord & { name: string }) | undefined {
  if (!lockName.startsWith(RECORD)) return undefined;
  const match = /^(\d+) ([\da-f]+|-) ([\s\S]*)$/.exec(lockName.slice(RECORD.length));
  if (match === null) return undefined;
  return { seq: Number(match[1]), digest: match[2] ?? '', name: match[3] ?? '' };
}

/** SHA-256 of `text` in hex, or `-` for no entry. Web Locks, and so this, exist only in secure contexts, which have `crypto.subtle`. */
async function digestOf(text: string | null): Promise<string> {
  if (text === null) return '-';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The `Store` contract, run against any store: call {@link storeContract} from a
 * test file with a factory for the store under test. Every store of
 * `@mcp/core/connections` and of the other packages runs it; what a store does
 * with garbage (a value someone else wrote) it declares in the options.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Store, StoreError } from '../../src/connections/index.js';

/** One store to test, as the factory opens it. */
export interface StoreUnderTest {
  /** The store. */
  readonly store: Store;
  /**
   * A second instance sharing what `store` shares (another client of the same
   * Redis, another store on the same directory), for the update race across
   * instances. Absent for a store shared by nothing (memory).
   */
  readonly peer?: Store;
  /** Writes, behind the store's back, something under `key` that no store wrote (not JSON, a wrong type). */
  plantGarbage?(key: string): Promise<void>;
  /** Frees what the factory opened; called after each test. */
  close?(): Promise<void>;
}

/** What a store promises beyond the shared contract. */
export interface StoreContractOptions {
  /**
   * What reading garbage under a key gives: `'error'` a `StoreError`
   * (`invalid_value`) from `get` and from `update` (whose `change` then does not
   * run), `'undefined'` as if the key were empty. Needs `plantGarbage`.
   */
  readonly garbage?: 'error' | 'undefined';
  /**
   * Opens the store with these lock bounds, for the tests past them: a waiter
   * gives up after `lockWaitMs`, and a change that outlives `leaseMs` while
   * another instance takes the lock has its result refused. Only for stores
   * that lock with a lease (Redis, files); `peer` must be given.
   */
  readonly bounded?: (bounds: { leaseMs: number; lockWaitMs: number }) => Promise<StoreUnderTest>;
}

/** Runs the `Store` contract against the stores `open` makes, one per test. */
export function storeContract(
  name: string,
  open: () => Promise<StoreUnderTest>,
  options: StoreContractOptions = {},
): void {
  describe(`${name}: the Store contract`, () => {
    const opened: StoreUnderTest[] = [];
    const use = async (factory = open) => {
      const one = await factory();
      opened.push(one);
      return one;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((one) => one.close?.()));
    });

    it('reads back what it stored, as a copy; a key never written reads as undefined', async () => {
      const { store } = await use();
      const value = { name: 'files', url: 'https://example.com/mcp', headers: { 'x-a': 'b' }, list: [1, 'two', null] };
      await store.set('config:files', value);
      const read = await store.get('config:files');
      expect(read).toEqual(value);
      (read as { name: string }).name = 'changed';
      expect(await store.get('config:files')).toEqual(value);
      expect(await store.get('config:missing')).toBeUndefined();
    });

    it('keeps JSON values of every kind, and keys of any text', async () => {
      const { store } = await use();
      const values: [string, unknown][] = [
        ['string', 'héllo ✓ 🙂 \n "quoted"'],
        ['number', -12.5],
        ['zero', 0],
        ['false', false],
        ['null', null],
        ['empty-string', ''],
        ['array', [[], {}, [1, [2, [3]]]]],
        ['nested', { a: { b: { c: 'd' } }, 'key with space': true }],
      ];
      for (const [key, value] of values) await store.set(key, value);
      for (const [key, value] of values) expect(await store.get(key), key).toEqual(value);
      for (const key of ['', '../../etc/passwd', 'a/b\\c', 'nul\0in', 'ü:ß|%2F', 'x'.repeat(2000)]) {
        await store.set(key, key.length);
        expect(await store.get(key), JSON.stringify(key.slice(0, 20))).toBe(key.length);
      }
      expect(await store.get('x'.repeat(1999))).toBeUndefined();
    });

    it('set(undefined) and delete remove a key; deleting a missing key is no error', async () => {
      const { store } = await use();
      await store.set('a', 1);
      await store.set('a', undefined);
      expect(await store.get('a')).toBeUndefined();
      await store.set('b', 2);
      await store.delete('b');
      expect(await store.get('b')).toBeUndefined();
      await store.delete('never-there');
    });

    it('update stores what change returns and resolves to it; returning undefined deletes the key', async () => {
      const { store } = await use();
      expect(await store.update('n', (current) => (current === undefined ? 1 : 0))).toBe(1);
      expect(await store.update('n', (current) => (current as number) + 1)).toBe(2);
      expect(await store.get('n')).toBe(2);
      expect(await store.update('n', async () => undefined)).toBeUndefined();
      expect(await store.get('n')).toBeUndefined();
    });

    it('concurrent updates of one key each run change exactly once, one at a time, and lose nothing', async () => {
      const { store, peer } = await use();
      const stores = peer ? [store, peer] : [store];
      let inside = 0;
      let overlapped = false;
      let runs = 0;
      const updates = Array.from({ length: 12 }, (_, i) =>
        (stores[i % stores.length] as Store).update('counter', async (current) => {
          runs++;
          inside++;
          if (inside > 1) overlapped = true;
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside--;
          return ((current as number | undefined) ?? 0) + 1;
        }),
      );
      expect((await Promise.all(updates)).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(runs).toBe(12);
      expect(overlapped).toBe(false);
      expect(await store.get('counter')).toBe(12);
      if (peer) expect(await peer.get('counter')).toBe(12);
    });

    it('updates of different keys do not wait for each other', async () => {
      const { store } = await use();
      let releaseA: () => void = () => {};
      const a = store.update('a', () => new Promise<number>((resolve) => (releaseA = () => resolve(1))));
      expect(await store.update('b', () => 2)).toBe(2);
      releaseA();
      expect(await a).toBe(1);
    });

    it('a change that throws leaves the value as it was, rejects with its error, and frees the key', async () => {
      const { store, peer } = await use();
      await store.set('kept', { v: 1 });
      const boom = new Error('change failed');
      await expect(
        store.update('kept', () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      await expect(store.update('kept', async () => Promise.reject(boom))).rejects.toBe(boom);
      expect(await store.get('kept')).toEqual({ v: 1 });
      // The lock is free at once: the next update (here or in another instance) runs without waiting for a lease.
      expect(await (peer ?? store).update('kept', (current) => ({ ...(current as object), v: 2 }))).toEqual({ v: 2 });
    });

    if (options.garbage) {
      const garbage = options.garbage;
      it(`garbage someone else stored reads as ${garbage === 'error' ? 'a StoreError' : 'undefined'}, and can be deleted`, async () => {
        const { store, plantGarbage } = await use();
        if (!plantGarbage) throw new Error('the garbage option needs plantGarbage');
        await plantGarbage('tokens:x');
        let ran = false;
        const change = () => {
          ran = true;
          return 'replaced';
        };
        if (garbage === 'error') {
          await expect(store.get('tokens:x')).rejects.toMatchObject({ name: 'StoreError', code: 'invalid_value' });
          await expect(store.get('tokens:x')).rejects.toBeInstanceOf(StoreError);
          await expect(store.update('tokens:x', change)).rejects.toMatchObject({ code: 'invalid_value' });
          expect(ran).toBe(false);
        } else {
          expect(await store.get('tokens:x')).toBeUndefined();
        }
        await store.delete('tokens:x');
        expect(await store.update('tokens:x', change)).toBe('replaced');
        expect(await store.get('tokens:x')).toBe('replaced');
      });
    }

    const bounded = options.bounded;
    if (bounded) {
      it('an update waits at most lockWaitMs for another holder, then fails without running change', async () => {
        const { store, peer } = await use(() => bounded({ leaseMs: 5_000, lockWaitMs: 300 }));
        if (!peer) throw new Error('the bounded option needs a peer');
        let release: () => void = () => {};
        const holder = store.update('held', () => new Promise<string>((resolve) => (release = () => resolve('first'))));
        await new Promise((resolve) => setTimeout(resolve, 50));
        let ran = false;
        const started = Date.now();
        await expect(
          peer.update('held', () => {
            ran = true;
            return 'second';
          }),
        ).rejects.toMatchObject({ name: 'StoreError', code: 'lock_timeout', key: 'held' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
        expect(ran).toBe(false);
        release();
        expect(await holder).toBe('first');
        expect(await peer.get('held')).toBe('first');
      });

      it('a change that outlives leaseMs loses the lock to another instance, and its result is refused', async () => {
        const { store, peer } = await use(() => bounded({ leaseMs: 300, lockWaitMs: 5_000 }));
        if (!peer) throw new Error('the bounded option needs a peer');
        let release: () => void = () => {};
        const slow = store.update('leased', () => new Promise<string>((resolve) => (release = () => resolve('slow'))));
        await new Promise((resolve) => setTimeout(resolve, 50));
        // Waits for the lease to run out, then takes the lock while the slow change still runs.
        expect(await peer.update('leased', () => 'after the lease')).toBe('after the lease');
        release();
        await expect(slow).rejects.toMatchObject({ name: 'StoreError', code: 'lease_expired', key: 'leased' });
        expect(await store.get('leased')).toBe('after the lease');
        // Nothing is left locked: both can update again at once.
        expect(await store.update('leased', () => 'again')).toBe('again');
      });
    }
  });
}

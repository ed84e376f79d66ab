import { chmod, chown, link, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeContract } from '../../../core/test/connections/store-contract.js';
import { keyFileName } from '../../src/file-store/key-file-name.js';
import { FileStore, type FileStoreOptions } from '../../src/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-file-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A fresh directory path inside the test's root (not created: the store creates it). */
const fresh = () => join(root, crypto.randomUUID());

/** Two stores on one directory, as two processes would open it. */
async function openPair(options: FileStoreOptions = {}) {
  const directory = fresh();
  return {
    store: new FileStore(directory, options),
    peer: new FileStore(directory, options),
    async plantGarbage(key: string) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await writeFile(join(directory, keyFileName(key)), '{"access_token": "cut off', { mode: 0o600 });
    },
  };
}

storeContract('FileStore', () => openPair(), { garbage: 'error', bounded: (bounds) => openPair(bounds) });

const isRoot = process.getuid?.() === 0;
const OTHER_USER = 65534;

describe('FileStore on disk', () => {
  it('creates its directory 0700 and each file 0600, and leaves no temporary or lock file behind', async () => {
    const directory = fresh();
    const store = new FileStore(directory);
    await store.set('config:files', { url: 'https://example.com/mcp' });
    await store.update('session:files', () => ({ id: 's1' }));
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const names = (await readdir(directory)).sort();
    expect(names).toEqual([keyFileName('config:files'), keyFileName('session:files')].sort());
    for (const name of names) expect((await stat(join(directory, name))).mode & 0o777).toBe(0o600);
  });

  it('names every key inside its directory, one file per key: ../, slashes, NUL, case and very long keys', async () => {
    const directory = fresh();
    const store = new FileStore(directory);
    const keys = [
      '../escape',
      '../../../../tmp/x',
      '/etc/passwd',
      'a\\..\\b',
      'nul\0byte',
      '.',
      '..',
      '',
      'Config',
      'config',
      '_0043onfig',
      'lone \ud800 surrogate',
      'lone \ufffd replacement',
      'x'.repeat(40),
      'x'.repeat(41),
      'é'.repeat(5000),
      `${'y'.repeat(300)}a`,
      `${'y'.repeat(300)}b`,
    ];
    for (const [i, key] of keys.entries()) await store.set(key, i);
    for (const [i, key] of keys.entries()) expect(await store.get(key), JSON.stringify(key.slice(0, 30))).toBe(i);
    const names = await readdir(directory);
    expect(names).toHaveLength(keys.length);
    for (const name of names) {
      expect(name).toMatch(/^(k[a-z0-9_-]*|h[0-9a-f]{64})\.json$/);
      expect(name.length).toBeLessThanOrEqual(206);
    }
    // Nothing was written beside the directory.
    expect((await readdir(root)).filter((name) => !/^[0-9a-f-]{36}$/.test(name))).toEqual([]);
  });

  it('refuses a directory others may write, a link for a directory, and a file planted as a link', async () => {
    const open = fresh();
    await mkdir(open, { mode: 0o777 });
    await chmod(open, 0o777);
    await expect(new FileStore(open).get('k')).rejects.toMatchObject({
      name: 'StoreError',
      code: 'untrusted',
      key: 'k',
      message: expect.stringContaining(`chmod 700 '${open}'`),
    });

    const real = fresh();
    await mkdir(real, { mode: 0o700 });
    const linked = fresh();
    await symlink(real, linked);
    await expect(new FileStore(linked).set('k', 1)).rejects.toMatchObject({ code: 'untrusted' });

    const directory = fresh();
    const store = new FileStore(directory);
    await store.set('other', 'secret of another key');
    await symlink(join(directory, keyFileName('other')), join(directory, keyFileName('tokens')));
    await expect(store.get('tokens')).rejects.toMatchObject({ code: 'untrusted', key: 'tokens' });
    // delete removes the planted link, not what it points to.
    await store.delete('tokens');
    expect(await store.get('tokens')).toBeUndefined();
    expect(await store.get('other')).toBe('secret of another key');
  });

  it('refuses a file with two names, or that others may read, before parsing it', async () => {
    const directory = fresh();
    const store = new FileStore(directory);
    await store.set('a', 1);
    await link(join(directory, keyFileName('a')), join(directory, keyFileName('b')));
    await expect(store.get('b')).rejects.toThrow('hard links');
    await store.delete('b');
    await store.set('c', 2);
    await chmod(join(directory, keyFileName('c')), 0o644);
    await expect(store.get('c')).rejects.toMatchObject({
      code: 'untrusted',
      message: expect.stringContaining('mode 644'),
    });
  });

  it.skipIf(!isRoot)('refuses a file of another user (needs root to make one)', async () => {
    const directory = fresh();
    const store = new FileStore(directory);
    await store.set('tokens', { access_token: 'mine' });
    await chown(join(directory, keyFileName('tokens')), OTHER_USER, OTHER_USER);
    await expect(store.get('tokens')).rejects.toMatchObject({
      code: 'untrusted',
      message: expect.stringContaining(`belongs to user ${OTHER_USER}`),
    });
  });

  it('takes over a lock file left by a process that died, once it is older than leaseMs', async () => {
    const directory = fresh();
    const store = new FileStore(directory, { leaseMs: 300, lockWaitMs: 5_000 });
    await store.set('tokens', 1);
    await writeFile(join(directory, `${keyFileName('tokens')}.lock`), '4242:00000000-0000-4000-8000-000000000000', {
      mode: 0o600,
    });
    const started = Date.now();
    expect(await store.update('tokens', (current) => (current as number) + 1)).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await readdir(directory)).toEqual([keyFileName('tokens')]);
  });

  it('refuses lease bounds that are not whole ms above 0', () => {
    expect(() => new FileStore(fresh(), { leaseMs: 0 })).toThrow('FileStoreOptions.leaseMs');
    expect(() => new FileStore(fresh(), { lockWaitMs: Number.NaN })).toThrow(RangeError);
  });
});

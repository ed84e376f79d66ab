import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/cli/bridge/token-store.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-token-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const server = new URL('https://mcp.example.com/mcp');
let n = 0;
const fresh = () => join(root, `store-${n++}`);

describe('FileOAuthStore', () => {
  it('two stores on one file keep each other’s keys: each write merges its one key into what the file holds', async () => {
    const directory = fresh();
    const a = new FileOAuthStore(directory, server);
    const b = new FileOAuthStore(directory, server);
    await a.set('client:x', { client_id: 'a' });
    expect(await b.get('client:x')).toEqual({ client_id: 'a' });
    await b.set('tokens:x|r', { access_token: 'b' });
    await a.set('server:y', { issuer: 'x' });
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).set(`k${i}`, i)));
    const file = JSON.parse(await readFile(a.file, 'utf8'));
    expect(file).toMatchObject({ 'client:x': { client_id: 'a' }, 'tokens:x|r': { access_token: 'b' }, 'server:y': {} });
    expect(Object.keys(file).filter((key) => key.startsWith('k'))).toHaveLength(10);
    await a.delete('client:x');
    expect(await b.get('client:x')).toBeUndefined();
    expect(await b.get('tokens:x|r')).toEqual({ access_token: 'b' });
  });

  it('narrows an existing store directory that group or others may use to 0700', async () => {
    const directory = fresh();
    await mkdir(directory, { mode: 0o755 });
    await chmod(directory, 0o777);
    await new FileOAuthStore(directory, server).set('k', 1);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
  });

  // Giving a directory to another user takes root: the test runs where it can.
  it.runIf(process.getuid?.() === 0)(
    'refuses a store directory another user owns, and writes nothing there',
    async () => {
      const directory = fresh();
      await mkdir(directory, { mode: 0o700 });
      await chown(directory, 12345, 12345);
      const store = new FileOAuthStore(directory, server);
      await expect(store.set('tokens:x|r', { access_token: 'secret' })).rejects.toThrow('belongs to another user');
      expect(await readdir(directory)).toEqual([]);
    },
  );

  it('writes through a new temporary of a random name, never through a link planted in the directory', async () => {
    const directory = fresh();
    await mkdir(directory, { mode: 0o700 });
    const store = new FileOAuthStore(directory, server);
    const victim = join(root, `victim-${n}`);
    await writeFile(victim, 'untouched');
    // Where the store used to write its temporary: a name anyone could guess.
    await symlink(victim, `${store.file}.${process.pid}.tmp`);
    await store.set('tokens:x|r', { access_token: 'secret' });
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    // Nothing but the file, the planted link and no leftover temporary or lock.
    expect((await readdir(directory)).sort()).toEqual(
      [`${store.file.split('/').pop()}`, `${store.file.split('/').pop()}.${process.pid}.tmp`].sort(),
    );
  });

  it('a write waits at most lockWaitMs for another holder of the lock, then fails; a stale lock is taken over', async () => {
    const directory = fresh();
    const store = new FileOAuthStore(directory, server, { lockWaitMs: 200 });
    await store.set('k', 1);
    await writeFile(`${store.file}.lock`, '99999');
    const started = performance.now();
    await expect(store.set('k', 2)).rejects.toThrow('locked by another bridge');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(await store.get('k')).toBe(1);
    // Left by a bridge that died a minute ago.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(`${store.file}.lock`, aMinuteAgo, aMinuteAgo);
    await store.set('k', 3);
    expect(await store.get('k')).toBe(3);
  });
});

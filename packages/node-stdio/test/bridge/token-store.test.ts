import { execFileSync } from 'node:child_process';
import {
  chmod,
  chown,
  link,
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
import { type AuthServers, startAuthServers } from '../../../../test-servers/auth/serve.mjs';
import { FileOAuthStore } from '../../src/cli/bridge/token-store.js';
import { TokenStoreError } from '../../src/cli/bridge/token-store-error.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-token-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const server = new URL('https://mcp.example.com/mcp');
let n = 0;
const fresh = () => join(root, `store-${n++}`);

/** Someone else on this machine: `nobody`. Giving files away takes root, which these tests run as where they can. */
const OTHER_USER = 65534;
const asRoot = process.getuid?.() === 0;

/** A token file for `server` in a new directory of ours, as a run of the bridge leaves it. */
async function storeWithTokens(tokens: Record<string, unknown> = { access_token: 'secret', token_type: 'Bearer' }) {
  const directory = fresh();
  const store = new FileOAuthStore(directory, server);
  await store.set('tokens:x|r', tokens);
  return { directory, store, file: store.file };
}

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

  it('narrows an existing store directory that group or others may only read to 0700', async () => {
    const directory = fresh();
    await mkdir(directory, { mode: 0o755 });
    await chmod(directory, 0o755);
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

describe('FileOAuthStore reads only what it can trust', () => {
  it('creates a missing store directory 0700 on the first read, parents included', async () => {
    const directory = join(fresh(), 'mcp', 'oauth');
    expect(await new FileOAuthStore(directory, server).get('tokens:x|r')).toBeUndefined();
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
  });

  it('refuses a store directory that group or others may write before anything in it is read, and says how to fix it', async () => {
    const { directory } = await storeWithTokens();
    for (const mode of [0o777, 0o770, 0o702]) {
      await chmod(directory, mode);
      const read = new FileOAuthStore(directory, server).get('tokens:x|r');
      await expect(read).rejects.toThrow(TokenStoreError);
      await expect(read).rejects.toThrow(`the token store ${directory} may be written by group or others`);
      await expect(read).rejects.toThrow(`chmod 700 '${directory}'`);
      // Nothing was changed on the user's behalf: they look first.
      expect((await stat(directory)).mode & 0o777).toBe(mode);
    }
    await chmod(directory, 0o700);
    expect(await new FileOAuthStore(directory, server).get('tokens:x|r')).toMatchObject({ access_token: 'secret' });
  });

  it.runIf(asRoot)('refuses to read tokens from a directory another user owns, and says how to fix it', async () => {
    const { directory } = await storeWithTokens();
    await chown(directory, OTHER_USER, OTHER_USER);
    const read = new FileOAuthStore(directory, server).get('tokens:x|r');
    await expect(read).rejects.toThrow(TokenStoreError);
    await expect(read).rejects.toThrow(`the token store ${directory} belongs to another user`);
    await expect(read).rejects.toThrow(`chown ${process.getuid?.()} '${directory}'`);
  });

  it.runIf(asRoot)('refuses a token file another user planted while the directory was open to others', async () => {
    const directory = fresh();
    await mkdir(directory);
    await chmod(directory, 0o777);
    const store = new FileOAuthStore(directory, server);
    // The owner looked at the directory and closed it, missing the planted file.
    const narrow = () => chmod(directory, 0o700);
    // Tokens of the planter's account, for the bridge to send: the planter sees what the user does with them.
    await writeFile(store.file, JSON.stringify({ 'tokens:x|r': { access_token: 'planted', token_type: 'Bearer' } }));
    await chmod(store.file, 0o600);
    await chown(store.file, OTHER_USER, OTHER_USER);
    await narrow();
    await expect(store.get('tokens:x|r')).rejects.toThrow(
      `refusing the token file ${store.file}: it belongs to user ${OTHER_USER}`,
    );
    await expect(store.get('tokens:x|r')).rejects.toThrow(`rm '${store.file}'`);
    // A write refuses it too, rather than carrying the planted keys over.
    await expect(store.set('tokens:x|r', { access_token: 'mine' })).rejects.toThrow(TokenStoreError);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
  });

  it('refuses a token file group or others may use', async () => {
    const { store, file } = await storeWithTokens();
    await chmod(file, 0o666);
    await expect(store.get('tokens:x|r')).rejects.toThrow(`group or others may use it (mode 666)`);
    await expect(store.get('tokens:x|r')).rejects.toThrow(`chmod 600 '${file}'`);
    await chmod(file, 0o600);
    expect(await store.get('tokens:x|r')).toMatchObject({ access_token: 'secret' });
  });

  it('refuses a token file that is a symbolic link, even to a file of ours', async () => {
    const elsewhere = await storeWithTokens({ access_token: 'for another server', token_type: 'Bearer' });
    const directory = fresh();
    await mkdir(directory, { mode: 0o700 });
    const store = new FileOAuthStore(directory, server);
    await symlink(elsewhere.file, store.file);
    await expect(store.get('tokens:x|r')).rejects.toThrow(
      `refusing the token store path ${store.file}: it is a symbolic link`,
    );
  });

  it("refuses a token file with a second name: another server's tokens linked in", async () => {
    const elsewhere = await storeWithTokens({ access_token: 'for another server', token_type: 'Bearer' });
    const directory = fresh();
    await mkdir(directory, { mode: 0o700 });
    const store = new FileOAuthStore(directory, server);
    await link(elsewhere.file, store.file);
    await expect(store.get('tokens:x|r')).rejects.toThrow('it has 2 names (hard links)');
  });

  it('refuses a FIFO at the token file at once, instead of waiting for a writer for ever', async () => {
    const directory = fresh();
    await mkdir(directory, { mode: 0o700 });
    const store = new FileOAuthStore(directory, server);
    execFileSync('mkfifo', ['-m', '600', store.file]);
    await expect(store.get('tokens:x|r')).rejects.toThrow('it is not a regular file');
  });

  it('refuses a store directory that is a symbolic link, and creates nothing where it points', async () => {
    const { directory } = await storeWithTokens();
    const linked = fresh();
    await symlink(directory, linked);
    const store = new FileOAuthStore(linked, server);
    await expect(store.get('tokens:x|r')).rejects.toThrow(
      `refusing the token store path ${linked}: it is a symbolic link`,
    );
    await expect(store.set('k', 1)).rejects.toThrow('it is a symbolic link');
    expect(await readdir(directory)).toHaveLength(1);
  });
});

describe('FileOAuthStore refreshes with the refresh token of the same authorization server', () => {
  let servers: AuthServers;
  beforeAll(async () => {
    servers = await startAuthServers();
  });
  afterAll(() => servers?.close());

  /** A refresh grant as the OAuth provider sends it, through the store's fetch, to `issuer`'s token endpoint. */
  async function refresh(store: FileOAuthStore, issuer: string, refreshToken: string, resource: string) {
    const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as {
      token_endpoint: string;
    };
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, resource });
    body.set('client_id', 'bridge');
    const response = await store.refreshingFetch()(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    await response.body?.cancel();
  }

  it("never sends issuer B's refresh token to issuer A; a token A rotated under A's key is used", async () => {
    const [a, b] = [await servers.createScenario(), await servers.createScenario()];
    const resource = a.info().mcp;
    const keyA = `tokens:${a.info().issuer}|${resource}`;
    const keyB = `tokens:${b.info().issuer}|${resource}`;
    const directory = fresh();
    const bridge = new FileOAuthStore(directory, new URL(resource));
    const other = new FileOAuthStore(directory, new URL(resource));
    await other.set(keyA, { access_token: 'a', token_type: 'Bearer', refresh_token: 'a-refresh-1' });
    await other.set(keyB, { access_token: 'b', token_type: 'Bearer', refresh_token: 'b-refresh-1' });
    // The bridge reads A's tokens to refresh them; meanwhile another bridge's refresh at A is refused and
    // drops A's refresh token (as the provider does on invalid_grant). B's is now the only one in the file.
    expect(await bridge.get(keyA)).toMatchObject({ refresh_token: 'a-refresh-1' });
    await other.set(keyA, { access_token: 'a', token_type: 'Bearer' });
    await refresh(bridge, a.info().issuer, 'a-refresh-1', resource);

    // Another bridge rotated A's refresh token: that one goes to A in place of the spent one.
    await other.set(keyA, { access_token: 'a', token_type: 'Bearer', refresh_token: 'a-refresh-1' });
    expect(await bridge.get(keyA)).toMatchObject({ refresh_token: 'a-refresh-1' });
    await other.set(keyA, { access_token: 'a', token_type: 'Bearer', refresh_token: 'a-refresh-2' });
    await refresh(bridge, a.info().issuer, 'a-refresh-1', resource);

    const sent = (scenario: typeof a) =>
      scenario
        .stats()
        .requests.filter((request) => request.form?.grant_type === 'refresh_token')
        .map((request) => request.form?.refresh_token);
    expect(sent(a)).toEqual(['a-refresh-1', 'a-refresh-2']);
    expect(sent(b)).toEqual([]);
  });
});

import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'esbuild';
import { type AuthScenario, type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { expect, test } from './fixtures.js';

// LocalStorageStore (@mcp/core/browser, built) in Chromium: the Store contract over real Web Storage, its
// Web Lock across two tabs of one origin, the bound on waiting for that lock, and what the lock is for —
// two tabs refreshing one rotated refresh token at once, against the OAuth test servers.

const PAGE = '/runtimes/browser/scenarios.html';
const BROWSER_ENTRY = '/packages/core/dist/bundle/browser.js';
const CORE_ENTRY = '/packages/core/dist/bundle/index.js';

interface PageStore {
  readonly atomic: boolean;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T>;
}

/** The part of the built browser entry these tests use, as the page sees it. */
interface BrowserEntry {
  LocalStorageStore: new (options?: {
    prefix?: string;
    storage?: Storage;
    locks?: LockManager | false;
    lockWaitMs?: number;
  }) => PageStore;
}

/** Two tabs of the test origin, both loaded. */
async function twoTabs(context: BrowserContext): Promise<[Page, Page]> {
  const tabs = [await context.newPage(), await context.newPage()] as const;
  for (const tab of tabs) await tab.goto(PAGE);
  return [tabs[0], tabs[1]];
}

/** An error as the page hands it back: its name, and its code or message. */
type Failure = { name: string; code?: string; message: string; cause?: string };

test('over Chromium’s localStorage: values as JSON beside the app’s keys, garbage reads as not stored, a spent quota is AuthError store_failed', async ({
  page,
}) => {
  await page.goto(PAGE);
  const outcome = await page.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    const store = new LocalStorageStore({ prefix: 'app:' });
    localStorage.setItem('theme', 'dark');
    await store.set('mcp:config:a', { name: 'a', url: 'https://mcp.example/mcp' });
    const read = (await store.get('mcp:config:a')) as { name: string };
    read.name = 'changed';
    const copy = await store.get('mcp:config:a');
    const returned = await store.update('mcp:configs', (current) => [
      ...((current as string[] | undefined) ?? []),
      'a',
    ]);
    const deletedByUpdate = await store.update('mcp:config:a', () => undefined);
    await store.set('mcp:era:x', 'legacy');
    await store.set('mcp:era:x', undefined);
    await store.delete('never-stored');
    localStorage.setItem('app:mcp:session:a', '{"sessionId": "trunc');
    const garbage = await store.get('mcp:session:a');
    const replaced = await store.update('mcp:session:a', (current) => ({ sessionId: 's', was: current ?? null }));
    const quota = await store.set('mcp:big', 'x'.repeat(12_000_000)).then(
      () => undefined,
      (error: Error & { code?: string; cause?: Error }) => ({
        name: error.name,
        code: error.code,
        cause: error.cause?.name,
      }),
    );
    return {
      atomic: store.atomic,
      copy,
      returned,
      deletedByUpdate,
      garbage,
      replaced,
      quota,
      stored: Object.fromEntries(Object.keys(localStorage).map((key) => [key, localStorage.getItem(key)])),
    };
  }, BROWSER_ENTRY);
  expect(outcome).toEqual({
    atomic: true,
    copy: { name: 'a', url: 'https://mcp.example/mcp' },
    returned: ['a'],
    deletedByUpdate: undefined,
    garbage: undefined,
    replaced: { sessionId: 's', was: null },
    quota: { name: 'AuthError', code: 'store_failed', cause: 'QuotaExceededError' },
    stored: {
      theme: 'dark',
      'app:mcp:configs': '["a"]',
      'app:mcp:session:a': '{"sessionId":"s","was":null}',
    },
  });
});

/** A test of the shared contract as the page reports it: its name, and its failure's stack when it failed. */
type ContractResult = { name: string; failure?: string };

/**
 * packages/core/test/connections/store-contract.ts bundled for the page, with vitest's `describe`, `it`,
 * `afterEach` and `expect` from e2e/support/vitest-in-page.mjs, loaded as `window.runStoreContract`.
 */
async function loadStoreContract(page: Page): Promise<void> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./support/store-contract-page.mjs', import.meta.url))],
    alias: { vitest: fileURLToPath(new URL('./support/vitest-in-page.mjs', import.meta.url)) },
    // @vitest/expect is vitest's, not a dependency of the repository: pnpm keeps it here.
    nodePaths: [fileURLToPath(new URL('../node_modules/.pnpm/node_modules', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  await page.addScriptTag({ type: 'module', content: `${code}\nwindow.runStoreContract = runStoreContract;` });
  await page.waitForFunction(() => 'runStoreContract' in window);
}

test('the shared Store contract in the page, a second LocalStorageStore as the peer', async ({ page }) => {
  await page.goto(PAGE);
  await loadStoreContract(page);
  const run = (locks: boolean) =>
    page.evaluate(
      async ([entry, locks]) => {
        const { LocalStorageStore }: BrowserEntry = await import(entry);
        type Run = (name: string, open: () => Promise<unknown>, options: unknown) => Promise<ContractResult[]>;
        const runStoreContract = (window as unknown as { runStoreContract: Run }).runStoreContract;
        let opened = 0;
        return runStoreContract(
          'LocalStorageStore',
          async () => {
            const prefix = `contract-${locks}-${++opened}:`;
            const options = { prefix, ...(locks ? {} : { locks: false as const }) };
            return {
              store: new LocalStorageStore(options),
              peer: new LocalStorageStore(options),
              plantGarbage: async (key: string) => localStorage.setItem(prefix + key, '{"access_token": "trunc'),
            };
          },
          { garbage: 'undefined' },
        );
      },
      [BROWSER_ENTRY, locks] as const,
    );
  const withLocks = await run(true);
  expect(withLocks.length).toBeGreaterThanOrEqual(8);
  expect(withLocks.filter((result) => result.failure !== undefined)).toEqual([]);
  // The contract can fail in the page: two stores without Web Locks do not exclude each other.
  const without = await run(false);
  expect(without.filter((result) => result.failure !== undefined).map((result) => result.name)).toEqual([
    expect.stringContaining('concurrent updates of one key'),
  ]);
});

/** Has the tab add 1 to `counter` `times` times through `update`, each change taking a few ms as a refresh would. */
function countIn(tab: Page, times: number, locks: boolean): Promise<number[]> {
  return tab.evaluate(
    async ([entry, times, locks]) => {
      const { LocalStorageStore }: BrowserEntry = await import(entry);
      const store = new LocalStorageStore(locks ? {} : { locks: false });
      const step = (current: unknown) =>
        new Promise<number>((resolve) => setTimeout(() => resolve(((current as number | undefined) ?? 0) + 1), 5));
      return Promise.all(Array.from({ length: times }, () => store.update('counter', step)));
    },
    [BROWSER_ENTRY, times, locks] as const,
  );
}

test('two tabs adding to one key through update lose nothing: each change saw the one before it', async ({
  context,
}) => {
  const [first, second] = await twoTabs(context);
  const [a, b] = await Promise.all([countIn(first, 20, true), countIn(second, 20, true)]);
  expect([...a, ...b].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  expect(await first.evaluate(() => localStorage.getItem('counter'))).toBe('40');

  // The same without Web Locks: each tab orders only its own updates, and the tabs overwrite each other.
  await first.evaluate(() => localStorage.removeItem('counter'));
  await Promise.all([countIn(first, 20, false), countIn(second, 20, false)]);
  expect(Number(await first.evaluate(() => localStorage.getItem('counter')))).toBeLessThan(40);
});

test('a tab holding a key’s lock forever costs another tab lockWaitMs, not a hang; closing it frees the key', async ({
  context,
}) => {
  const [holder, waiter] = await twoTabs(context);
  await holder.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    let started: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      started = resolve;
    });
    // A change that never settles (a refresh whose request never ends, a tab paused in a debugger).
    void new LocalStorageStore().update('tokens', () => {
      started();
      return new Promise(() => {});
    });
    await holding;
  }, BROWSER_ENTRY);

  const timedOut = await waiter.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    let ran = false;
    const started = performance.now();
    const failure = await new LocalStorageStore({ lockWaitMs: 500 })
      .update('tokens', () => {
        ran = true;
        return 'mine';
      })
      .then(
        () => undefined,
        (error: Error & { code?: string }) => ({ name: error.name, code: error.code, message: error.message }),
      );
    // Another key is not held by it.
    const other = await new LocalStorageStore({ lockWaitMs: 500 }).update('configs', () => ['a']);
    return { failure, ran, waited: performance.now() - started, other };
  }, BROWSER_ENTRY);
  expect(timedOut.failure).toEqual({
    name: 'StoreError',
    code: 'lock_timeout',
    message: expect.stringContaining('(lockWaitMs)'),
  });
  expect(timedOut.ran).toBe(false);
  expect(timedOut.waited).toBeGreaterThanOrEqual(450);
  expect(timedOut.other).toEqual(['a']);

  // The browser releases the locks of a tab that closes (or crashes): nothing is left to expire.
  await holder.close();
  const after = await waiter.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    return new LocalStorageStore({ lockWaitMs: 5_000 }).update('tokens', () => 'mine');
  }, BROWSER_ENTRY);
  expect(after).toBe('mine');
});

test('a plain set after an update is not taken for a late write: the next update waits at most a second, then sees it', async ({
  context,
}) => {
  const [first, second] = await twoTabs(context);
  await first.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    const store = new LocalStorageStore();
    await store.update('config', () => 'by update');
    // Written outside any lock: the record the update left names a text that will never come back.
    await store.set('config', 'by set');
  }, BROWSER_ENTRY);
  const outcome = await second.evaluate(async (entry) => {
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    const started = performance.now();
    let seen: unknown;
    await new LocalStorageStore().update('config', (current) => {
      seen = current;
      return 'next';
    });
    return { seen, waited: performance.now() - started };
  }, BROWSER_ENTRY);
  expect(outcome.seen).toBe('by set');
  expect(outcome.waited).toBeLessThan(10_000);
});

test('a browser without Web Locks gets a store that says it is not atomic, and still updates', async ({ page }) => {
  await page.goto(PAGE);
  const outcome = await page.evaluate(async (entry) => {
    // What an old browser, or a page that is not a secure context, has.
    Object.defineProperty(Navigator.prototype, 'locks', { configurable: true, get: () => undefined });
    const { LocalStorageStore }: BrowserEntry = await import(entry);
    const store = new LocalStorageStore();
    const value = await store.update('n', (current) => ((current as number | undefined) ?? 0) + 1);
    return { atomic: store.atomic, value };
  }, BROWSER_ENTRY);
  expect(outcome).toEqual({ atomic: false, value: 1 });
});

// ── Refresh-token rotation across tabs ──────────────────────────────────────────────────────────────

/** What a tab's race run ends with. */
interface RaceOutcome {
  tools?: number;
  failure?: Failure;
  /** How often the provider asked the user to sign in again. */
  signIns: number;
}

let servers: AuthServers;
test.beforeAll(async () => {
  servers = await startAuthServers();
});
test.afterAll(async () => {
  await servers?.close();
});

/**
 * The user approves at once: the authorization server answers with a redirect to the callback, which
 * is all the provider needs (the tests of popup and redirect flows are in oauth-browser.spec.ts).
 */
async function approve(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location') ?? '', url).href;
}

/** Signs the first tab in through a LocalStorageStore under `app:`, then makes its access token expired everywhere. */
async function signInThenExpire(tab: Page, scenario: AuthScenario): Promise<string> {
  await tab.context().exposeFunction('approveAuthorization', approve);
  const token = await tab.evaluate(
    async ([browserEntry, coreEntry, mcp]) => {
      const { LocalStorageStore }: BrowserEntry = await import(browserEntry);
      const { Client, OAuthProvider, StreamableHttpTransport } = await import(coreEntry);
      const approveAuthorization = (window as unknown as { approveAuthorization(url: string): Promise<string> })
        .approveAuthorization;
      const provider = new OAuthProvider({
        store: new LocalStorageStore({ prefix: 'app:' }),
        redirectUri: `${location.origin}/callback`,
        authorize: (url: URL) => approveAuthorization(String(url)),
      });
      const client = new Client(new StreamableHttpTransport(mcp, { auth: provider }), { requestTimeout: 10_000 });
      await client.connect();
      await client.close();
      const key = Object.keys(localStorage).find((name) => name.startsWith('app:tokens:'));
      if (key === undefined) throw new Error('no tokens stored');
      const tokens = JSON.parse(localStorage.getItem(key) ?? '{}');
      // Expired for the provider, which refreshes before it sends anything.
      localStorage.setItem(key, JSON.stringify({ ...tokens, expires_at: Date.now() - 1_000 }));
      return tokens.access_token as string;
    },
    [BROWSER_ENTRY, CORE_ENTRY, scenario.info().mcp] as const,
  );
  // And expired for the MCP server, which would refuse it.
  scenario.expireTokens();
  return token;
}

/** Gives the tab a fresh Client and OAuthProvider over a LocalStorageStore, ready to connect on `window.race()`. */
async function prepareRace(tab: Page, mcp: string, locks: boolean): Promise<void> {
  await tab.evaluate(
    async ([browserEntry, coreEntry, mcp, locks]) => {
      const { LocalStorageStore }: BrowserEntry = await import(browserEntry);
      const { Client, OAuthProvider, StreamableHttpTransport } = await import(coreEntry);
      let signIns = 0;
      const provider = new OAuthProvider({
        store: new LocalStorageStore({ prefix: 'app:', ...(locks ? {} : { locks: false }) }),
        redirectUri: `${location.origin}/callback`,
        // Being asked to sign in again is what this test counts as a logout; no user is here to do it.
        authorize: async () => {
          signIns++;
          throw new Error('the user was asked to sign in again');
        },
      });
      (window as unknown as { race(): Promise<RaceOutcome> }).race = async () => {
        const client = new Client(new StreamableHttpTransport(mcp, { auth: provider }), { requestTimeout: 10_000 });
        try {
          await client.connect();
          return { tools: (await client.listTools()).length, signIns };
        } catch (error) {
          const { name, message, code } = error as Error & { code?: string };
          return { failure: { name, message, ...(code !== undefined && { code }) }, signIns };
        } finally {
          await client.close();
        }
      };
    },
    [BROWSER_ENTRY, CORE_ENTRY, mcp, locks] as const,
  );
}

/**
 * Both tabs connect at once. Every token request is held 300 ms on its way, so both tabs have read the
 * expired tokens before either refresh can be answered: without the lock, the race is certain.
 */
async function race(context: BrowserContext, tabs: [Page, Page], mcp: string, locks: boolean) {
  await context.route(
    (url) => url.pathname.endsWith('/oauth/token'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    },
  );
  for (const tab of tabs) await prepareRace(tab, mcp, locks);
  return Promise.all(
    tabs.map((tab) => tab.evaluate(() => (window as unknown as { race(): Promise<RaceOutcome> }).race())),
  );
}

/** The refresh requests the authorization server received, with what it answered. */
function refreshes(scenario: AuthScenario) {
  return scenario
    .stats()
    .requests.filter((entry) => entry.path === '/oauth/token' && entry.form?.grant_type === 'refresh_token')
    .map((entry) => ({ status: entry.status, error: entry.error }));
}

test('two tabs refreshing one expired token at once: one refresh reaches the authorization server, both use the new token', async ({
  context,
}) => {
  const scenario = await servers.createScenario();
  const { mcp } = scenario.info();
  const tabs = await twoTabs(context);
  const expired = await signInThenExpire(tabs[0], scenario);
  const before = scenario.stats().requests.length;

  const outcomes = await race(context, tabs, mcp, true);

  expect(outcomes).toEqual([
    { tools: expect.any(Number), signIns: 0 },
    { tools: expect.any(Number), signIns: 0 },
  ]);
  expect(refreshes(scenario)).toEqual([{ status: 200 }]);
  const stored = await tabs[1].evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('app:tokens:'));
    return JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { access_token: string };
  });
  expect(stored.access_token).not.toBe(expired);
  // Every MCP request of the race that went through carried the one new token, from both tabs.
  const answered = scenario
    .stats()
    .requests.slice(before)
    .filter((entry) => entry.server === 'mcp' && entry.status !== undefined && entry.status < 300);
  expect(answered.filter((entry) => entry.rpcMethod === 'initialize')).toHaveLength(2);
  expect(new Set(answered.map((entry) => entry.headers.authorization))).toEqual(
    new Set([`Bearer ${stored.access_token}`]),
  );
});

test('the same race without the Web Lock: both tabs spend the refresh token, and the authorization server refuses the second', async ({
  context,
}) => {
  const scenario = await servers.createScenario();
  const { mcp } = scenario.info();
  const tabs = await twoTabs(context);
  await signInThenExpire(tabs[0], scenario);

  await race(context, tabs, mcp, false);

  // The authorization server rotates refresh tokens: the second use of the one both tabs read is refused.
  // Whether a user is then asked to sign in again depends on the order the two tabs write in (a tab
  // refused before the other stored its tokens resends with them), so only the refusal is certain.
  expect(refreshes(scenario)).toEqual([{ status: 200 }, { status: 400, error: 'invalid_grant' }]);
});

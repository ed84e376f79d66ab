import { expect, test } from './fixtures.js';

// LocalStorageOAuthStore (@mcp/core/browser, built) over Chromium's own Web Storage: what survives a
// reload, what a spent quota does, and sessionStorage in its place. The full OAuth flows through it run
// in oauth-browser.spec.ts.

const PAGE = '/runtimes/browser/scenarios.html';
const ENTRY = '/packages/core/dist/bundle/browser.js';

/** The part of the built entry these tests use, as the page sees it. */
interface BrowserEntry {
  LocalStorageOAuthStore: new (options?: {
    prefix?: string;
    storage?: Storage;
  }) => {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<void>;
  };
}

test('keeps the OAuth state in localStorage under its prefix, and the page after a reload reads it back', async ({
  page,
}) => {
  await page.goto(PAGE);
  await page.evaluate(async (entry) => {
    const { LocalStorageOAuthStore }: BrowserEntry = await import(entry);
    localStorage.setItem('theme', 'dark');
    await new LocalStorageOAuthStore().set('tokens:https://as.example|https://mcp.example/mcp', { access_token: 'a' });
  }, ENTRY);
  await page.reload();
  const after = await page.evaluate(async (entry) => {
    const { LocalStorageOAuthStore }: BrowserEntry = await import(entry);
    const store = new LocalStorageOAuthStore();
    const tokens = await store.get('tokens:https://as.example|https://mcp.example/mcp');
    await store.delete('tokens:https://as.example|https://mcp.example/mcp');
    return { tokens, keys: Object.keys(localStorage) };
  }, ENTRY);
  expect(after).toEqual({ tokens: { access_token: 'a' }, keys: ['theme'] });
});

test('a write past the browser’s quota rejects with AuthError store_failed, and the stored value stays', async ({
  page,
}) => {
  await page.goto(PAGE);
  const outcome = await page.evaluate(async (entry) => {
    const { LocalStorageOAuthStore }: BrowserEntry = await import(entry);
    const store = new LocalStorageOAuthStore();
    await store.set('tokens:x', { access_token: 'small' });
    // Chromium keeps 10 MiB per origin: this is past it in any encoding.
    const failure = await store.set('tokens:x', { access_token: 'x'.repeat(12_000_000) }).then(
      () => undefined,
      (error: Error & { code?: string; cause?: Error }) => ({
        name: error.name,
        code: error.code,
        cause: error.cause?.name,
      }),
    );
    return { failure, kept: await store.get('tokens:x') };
  }, ENTRY);
  expect(outcome).toEqual({
    failure: { name: 'AuthError', code: 'store_failed', cause: 'QuotaExceededError' },
    kept: { access_token: 'small' },
  });
});

test('sessionStorage in its place, and an entry that is not JSON reads as not stored', async ({ page }) => {
  await page.goto(PAGE);
  const outcome = await page.evaluate(async (entry) => {
    const { LocalStorageOAuthStore }: BrowserEntry = await import(entry);
    sessionStorage.setItem('app:pending:abc', '{"verifier": "trunc');
    const store = new LocalStorageOAuthStore({ storage: sessionStorage, prefix: 'app:' });
    const damaged = await store.get('pending:abc');
    await store.set('keys', ['pending:abc']);
    return { damaged, session: Object.keys(sessionStorage).sort(), local: Object.keys(localStorage) };
  }, ENTRY);
  expect(outcome).toEqual({ damaged: undefined, session: ['app:keys', 'app:pending:abc'], local: [] });
});

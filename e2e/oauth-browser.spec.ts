import type { Page } from '@playwright/test';
import { type AuthServers, type AuthStats, startAuthServers } from '../test-servers/auth/serve.mjs';
import { expect, test } from './fixtures.js';

/** What examples/oauth-browser/app.html puts on `window`. */
interface ExampleGlobals {
  example: {
    signIn(flow: 'popup' | 'redirect', url: string): Promise<string>;
    resumed: Promise<string | undefined>;
  };
}

const APP = '/examples/oauth-browser/app.html';

let servers: AuthServers;
test.beforeAll(async () => {
  servers = await startAuthServers();
});
test.afterAll(async () => {
  await servers?.close();
});

async function openApp(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(APP);
  await page
    .waitForFunction(() => 'ready' in window, undefined, { timeout: 10_000 })
    .catch(() => {
      throw new Error(`the example page did not load (is packages/core/dist built?): ${errors.join('; ')}`);
    });
}

/** The OAuth requests the browser made: `resource` on both, tokens only in headers. */
function expectWellBehaved(stats: AuthStats, mcp: string) {
  const authorizations = stats.requests.filter((entry) => entry.path === '/oauth/authorize');
  const tokenRequests = stats.requests.filter((entry) => entry.path === '/oauth/token');
  expect(authorizations.map((entry) => entry.query.resource)).toEqual([mcp]);
  expect(authorizations[0]?.query).toMatchObject({ code_challenge_method: 'S256', response_type: 'code' });
  expect(tokenRequests.map((entry) => entry.form?.resource)).toEqual([mcp]);
  expect(stats.tokensInUrls).toEqual([]);
}

test('popup flow: the callback page hands the response to the opener, and the MCP call goes through', async ({
  page,
  baseURL,
}) => {
  const scenario = await servers.createScenario();
  const { mcp } = scenario.info();
  await openApp(page);
  const popup = page.waitForEvent('popup');
  const text = await page.evaluate((url) => (window as unknown as ExampleGlobals).example.signIn('popup', url), mcp);
  expect(text).toBe('signed in with a popup');
  expect((await popup).isClosed()).toBe(true);

  const stats = scenario.stats();
  expectWellBehaved(stats, mcp);
  expect(stats.registrations[0]?.metadata.redirect_uris).toEqual([`${baseURL}/examples/oauth-browser/callback.html`]);
  const stored = await page.evaluate(() => Object.keys(localStorage));
  expect(stored.some((key) => key.startsWith('mcp-oauth:tokens:'))).toBe(true);
  expect(stored.some((key) => key.startsWith('mcp-oauth:pending:'))).toBe(false);
});

test('popup flow: a response with the wrong iss is refused before the code is redeemed', async ({ page }) => {
  const scenario = await servers.createScenario({ issInResponse: 'wrong' });
  await openApp(page);
  const failure = await page.evaluate(
    (url) =>
      (window as unknown as ExampleGlobals).example.signIn('popup', url).then(
        () => 'signed in',
        (error: Error & { code?: string }) => `${error.name} ${error.code}`,
      ),
    scenario.info().mcp,
  );
  expect(failure).toBe('AuthError issuer_mismatch');
  expect(scenario.stats().requests.filter((entry) => entry.path === '/oauth/token')).toEqual([]);
});

test('redirect flow: the page leaves, comes back, finishes from localStorage, and a reload needs no new sign-in', async ({
  page,
}) => {
  const scenario = await servers.createScenario();
  const { mcp } = scenario.info();
  await openApp(page);
  await Promise.all([
    page.waitForURL((url) => url.searchParams.has('code'), { waitUntil: 'commit' }),
    page.evaluate((url) => void (window as unknown as ExampleGlobals).example.signIn('redirect', url), mcp),
  ]);
  await page.waitForFunction(() => 'ready' in window);
  expect(await page.evaluate(() => (window as unknown as ExampleGlobals).example.resumed)).toBe(
    'back from the redirect',
  );
  expect(new URL(page.url()).search).toBe('');
  expectWellBehaved(scenario.stats(), mcp);

  await page.reload();
  await page.waitForFunction(() => 'ready' in window);
  const again = await page.evaluate(
    (url) => (window as unknown as ExampleGlobals).example.signIn('redirect', url),
    mcp,
  );
  expect(again).toBe('signed in with a redirect');
  expect(scenario.stats().requests.filter((entry) => entry.path === '/oauth/authorize')).toHaveLength(1);
});

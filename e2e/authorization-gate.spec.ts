import type { Page } from '@playwright/test';
import { type AuthScenario, type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { expect, test } from './fixtures.js';

// AuthorizationGate (@mcp/core/connections) with WebFlowLock and LocalStorageOAuthStore (@mcp/core/browser),
// built, in real Chromium: two tabs of one origin sign in to one server with one flow, and a blocked popup
// leaves a plain link.

const PAGE = '/runtimes/browser/scenarios.html';
const CALLBACK = '/examples/oauth-browser/callback.html';

/** What `setUp` puts on `window.gateTest`, as the test reads it. */
interface GateTest {
  /** Each state the gate showed: `url`, `blocked`, `elsewhere` or `none`. */
  states: string[];
  /** `connecting`, `ready`, or `failed <code>`. */
  status: string;
  /** Connection attempts made (one more after `authorized_elsewhere`). */
  attempts: number;
  /** The URL the gate shows, when it shows one. */
  url?: string;
  complete(callbackUrl: string): boolean;
}

let servers: AuthServers;
test.beforeAll(async () => {
  servers = await startAuthServers();
});
test.afterAll(async () => {
  await servers?.close();
});

/**
 * In `page`: a gate over the origin's Web Locks, an OAuthProvider over localStorage, and a connection loop
 * that retries at once after `authorized_elsewhere`. A `#sign-in` button calls `authorize()` from its click.
 */
async function setUp(page: Page, mcp: string, options: { blockPopups?: boolean } = {}): Promise<void> {
  await page.goto(PAGE);
  await page.evaluate(
    async ({ mcp, redirectUri, blockPopups }) => {
      const { AuthorizationGate } = await import('/packages/core/dist/bundle/connections.js' as string);
      const { LocalStorageOAuthStore, popupAuthorize, WebFlowLock } = await import(
        '/packages/core/dist/bundle/browser.js' as string
      );
      const { Client, OAuthProvider, StreamableHttpTransport } = await import(
        '/packages/core/dist/bundle/index.js' as string
      );
      if (blockPopups) window.open = () => null;
      const record: Omit<GateTest, 'complete'> = { states: [], status: 'connecting', attempts: 0 };
      const gate = new AuthorizationGate({
        handler: popupAuthorize(),
        lock: new WebFlowLock(),
        onChange: () => {
          const state = gate.state;
          record.url = state?.authorizationUrl?.href;
          record.states.push(
            state === undefined ? 'none' : state.elsewhere ? 'elsewhere' : state.popupBlocked ? 'blocked' : 'url',
          );
        },
      });
      const provider = new OAuthProvider({
        store: new LocalStorageOAuthStore(),
        redirectUri,
        authorize: gate.handler,
        clientMetadata: { client_name: 'gate e2e' },
      });
      const button = document.createElement('button');
      button.id = 'sign-in';
      button.textContent = 'Sign in';
      button.addEventListener('click', () => void gate.authorize());
      document.body.append(button);
      (window as unknown as { gateTest: GateTest }).gateTest = Object.assign(record, {
        complete: (url: string) => gate.complete(url),
      });
      void (async () => {
        for (;;) {
          record.attempts++;
          const client = new Client(new StreamableHttpTransport(mcp, { auth: provider }));
          try {
            await client.connect();
            gate.done();
            record.status = 'ready';
            return;
          } catch (error) {
            gate.done();
            await client.close();
            const code = (error as { code?: string }).code;
            if (code === 'authorized_elsewhere') continue;
            record.status = `failed ${code}`;
            return;
          }
        }
      })();
    },
    { mcp, redirectUri: new URL(CALLBACK, page.url()).href, blockPopups: options.blockPopups === true },
  );
}

const read = (page: Page) => page.evaluate(() => (window as unknown as { gateTest: GateTest }).gateTest);
const until = (page: Page, test: string) =>
  page.waitForFunction(
    (source) => new Function('t', `return ${source}`)((window as unknown as { gateTest: GateTest }).gateTest),
    test,
  );
const authorizations = (scenario: AuthScenario) =>
  scenario.stats().requests.filter((entry) => entry.path === '/oauth/authorize').length;

test('two tabs, one server: one shows the URL, the other elsewhere, and it connects with the first one’s tokens', async ({
  context,
}) => {
  const scenario = await servers.createScenario();
  const { mcp } = scenario.info();
  const first = await context.newPage();
  await setUp(first, mcp);
  await until(first, "t.states.includes('url')");
  const second = await context.newPage();
  await setUp(second, mcp);
  await until(second, "t.states.includes('elsewhere')");
  expect(await read(second)).toMatchObject({ states: ['elsewhere'], status: 'connecting' });
  expect(authorizations(scenario)).toBe(0);

  const popup = context.waitForEvent('page');
  await first.click('#sign-in');
  await popup;
  await until(first, "t.status === 'ready'");
  await until(second, "t.status === 'ready'");

  expect(await read(first)).toMatchObject({ states: ['url', 'none'], attempts: 1 });
  // The second never showed a URL and ran no flow: one retry, with the stored tokens.
  expect(await read(second)).toMatchObject({ states: ['elsewhere', 'none'], attempts: 2 });
  expect(authorizations(scenario)).toBe(1);
  const redemptions = scenario
    .stats()
    .requests.filter((entry) => entry.path === '/oauth/token' && entry.form?.grant_type === 'authorization_code');
  expect(redemptions).toHaveLength(1);
});

test('a blocked popup leaves the URL for a plain link, and the link’s callback completes the sign-in', async ({
  context,
}) => {
  const scenario = await servers.createScenario();
  const page = await context.newPage();
  await setUp(page, scenario.info().mcp, { blockPopups: true });
  await until(page, "t.states.includes('url')");
  await page.click('#sign-in');
  await until(page, "t.states.includes('blocked')");
  const { url, status } = await read(page);
  expect(status).toBe('connecting');
  expect(url).toBe(new URL(url ?? '').href);

  // The user follows the link in a tab of its own; the callback page lands there with no opener.
  const tab = await context.newPage();
  await tab.goto(url ?? '');
  await tab.waitForURL((landed) => landed.pathname === CALLBACK && landed.searchParams.has('code'));
  await expect(tab.locator('body')).toContainText('started in another window');
  const completed = await page.evaluate(
    (callback) => (window as unknown as { gateTest: GateTest }).gateTest.complete(callback),
    tab.url(),
  );
  expect(completed).toBe(true);
  await until(page, "t.status === 'ready'");
  expect((await read(page)).states).toEqual(['url', 'blocked', 'none']);
  expect(authorizations(scenario)).toBe(1);
});

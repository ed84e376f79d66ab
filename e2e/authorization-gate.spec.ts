import type { BrowserContext, Page } from '@playwright/test';
import { type AuthScenario, type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { expect, test } from './fixtures.js';

// AuthorizationGate (@mcp/core/connections) with WebFlowLock and LocalStorageOAuthStore (@mcp/core/browser),
// built, in real Chromium: two tabs of one origin sign in to one server with one flow, and a blocked popup
// leaves a plain link, whose callback page hands its URL back over the origin's BroadcastChannel.

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
  /** What `complete()` said for each URL the hand-off listener received. */
  handoffs: boolean[];
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
      const { listenForAuthorizationResponses, LocalStorageOAuthStore, popupAuthorize, WebFlowLock } = await import(
        '/packages/core/dist/bundle/browser.js' as string
      );
      const { Client, OAuthProvider, StreamableHttpTransport } = await import(
        '/packages/core/dist/bundle/index.js' as string
      );
      if (blockPopups) window.open = () => null;
      const record: GateTest = { states: [], status: 'connecting', attempts: 0, handoffs: [] };
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
      // The plain link's callback page, in a tab of its own, hands its URL over here.
      listenForAuthorizationResponses((url: string) => record.handoffs.push(gate.complete(url)));
      (window as unknown as { gateTest: GateTest }).gateTest = record;
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

/**
 * A page of its own, signing in to a new scenario's server with popups blocked: the user clicked sign-in,
 * and the gate leaves the URL for a plain link.
 */
async function waitingOnLink(context: BrowserContext) {
  const scenario = await servers.createScenario();
  const page = await context.newPage();
  await setUp(page, scenario.info().mcp, { blockPopups: true });
  await until(page, "t.states.includes('url')");
  await page.click('#sign-in');
  await until(page, "t.states.includes('blocked')");
  const { url, status } = await read(page);
  expect(status).toBe('connecting');
  return { scenario, page, url: url ?? '' };
}

/** The user follows `url` in a tab of its own; the callback page lands there with no opener and hands its URL over. */
async function followLink(context: BrowserContext, url: string): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.waitForURL((landed) => landed.pathname === CALLBACK && landed.searchParams.has('code'));
  await expect(tab.locator('body')).toContainText('started in another window');
  return tab;
}

test('a blocked popup leaves the URL for a plain link, and the link’s callback page hands its URL back', async ({
  context,
}) => {
  const { scenario, page, url } = await waitingOnLink(context);
  expect(url).toBe(new URL(url).href);

  await followLink(context, url);
  await until(page, "t.status === 'ready'");
  expect(await read(page)).toMatchObject({ states: ['url', 'blocked', 'none'], handoffs: [true], attempts: 1 });
  expect(authorizations(scenario)).toBe(1);
});

test('two tabs waiting on links: each callback completes only the tab whose flow it answers', async ({ context }) => {
  const { scenario: a, page: pageA, url: urlA } = await waitingOnLink(context);
  const { scenario: b, page: pageB, url: urlB } = await waitingOnLink(context);

  await followLink(context, urlA);
  await until(pageA, "t.status === 'ready'");
  await until(pageB, 't.handoffs.length === 1');
  // B heard A's callback too, and its gate refused it (another state): still waiting on its own link.
  expect(await read(pageB)).toMatchObject({ handoffs: [false], status: 'connecting', states: ['url', 'blocked'] });

  await followLink(context, urlB);
  await until(pageB, "t.status === 'ready'");
  expect(await read(pageA)).toMatchObject({ handoffs: [true, false], attempts: 1 });
  expect(await read(pageB)).toMatchObject({ handoffs: [false, true], attempts: 1 });
  expect([authorizations(a), authorizations(b)]).toEqual([1, 1]);
});

test('the hand-off takes only a callback URL of the page’s origin within MAX_CALLBACK_URL_LENGTH', async ({
  context,
}) => {
  const { page, url } = await waitingOnLink(context);
  const state = new URL(url).searchParams.get('state') ?? '';
  const callback = new URL(CALLBACK, page.url());
  callback.search = new URLSearchParams({ code: 'forged', state }).toString();

  // Another script of the origin posts what is not a callback URL of this origin, each carrying the waiting
  // flow's state (taken, it would complete the flow), then one that is, for another flow.
  const other = await context.newPage();
  await other.goto(PAGE);
  await other.evaluate(
    async ({ forged, foreign }) => {
      const { CALLBACK_CHANNEL, CALLBACK_MESSAGE, MAX_CALLBACK_URL_LENGTH } = await import(
        '/packages/core/dist/bundle/browser.js' as string
      );
      const elsewhere = new URL(forged);
      elsewhere.host = 'attacker.example';
      const channel = new BroadcastChannel(CALLBACK_CHANNEL);
      for (const data of [
        null,
        CALLBACK_MESSAGE,
        { type: CALLBACK_MESSAGE },
        { type: CALLBACK_MESSAGE, url: 42 },
        { type: 'something-else', url: forged },
        { type: CALLBACK_MESSAGE, url: 'not a url' },
        { type: CALLBACK_MESSAGE, url: elsewhere.href },
        { type: CALLBACK_MESSAGE, url: `${forged}&pad=${'x'.repeat(MAX_CALLBACK_URL_LENGTH)}` },
        { type: CALLBACK_MESSAGE, url: foreign },
      ]) {
        channel.postMessage(data);
      }
      channel.close();
    },
    { forged: callback.href, foreign: `${callback.origin}${CALLBACK}?code=x&state=another-flow` },
  );
  // Only the last reached the gate, which refused it; the flow still waits for its link.
  await until(page, 't.handoffs.length === 1');
  expect(await read(page)).toMatchObject({ handoffs: [false], status: 'connecting', states: ['url', 'blocked'] });

  await followLink(context, url);
  await until(page, "t.status === 'ready'");
  expect((await read(page)).handoffs).toEqual([false, true]);
});

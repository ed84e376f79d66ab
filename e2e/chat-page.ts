import type { Locator, Page } from '@playwright/test';
import { HTTP_TEST_SERVERS } from '../playwright.config';
import { createFaultScenario, readFaultStats } from '../runtimes/faults.js';
import { type AuthScenario, type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import type { MockModel } from '../test-servers/mock-model/serve.mjs';
import { expect, test } from './fixtures.js';

/**
 * What the two chat examples (examples/browser-chat, examples/react-chat) show
 * alike, as a user drives them: the model's settings, the server panel (its
 * Add form, one entry a server whose `aria-label` is its name and whose
 * `data-status` is its state) and the sign-in from an entry. Each example
 * stands alone, so the pages agree only on what a user sees; each spec adds
 * what is its own (how a message is sent, where the tools are listed).
 */

/** Fills the model's settings: the mock model, with the key it wants. */
export async function fillModel(page: Page, model: MockModel, apiKey: string): Promise<void> {
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByLabel('Model', { exact: true }).fill('mock-model');
}

/** Types a server's name and URL into the panel's form and clicks Add. */
export async function addServer(page: Page, name: string, url: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('URL').fill(url);
  await form.getByRole('button', { name: 'Add' }).click();
}

/** The panel's entry of the server named `name`. */
export function serverEntry(page: Page, name: string): Locator {
  return page.getByRole('listitem', { name, exact: true });
}

/** Waits until the server named `name` shows `status` (`ready`, `authorizing`, …). */
export async function expectStatus(page: Page, name: string, status: string): Promise<void> {
  await expect(serverEntry(page, name)).toHaveAttribute('data-status', status);
}

/** What a fault-server scenario saw: JSON-RPC methods by count, and every HTTP request with its headers. */
export interface ScenarioStats {
  methods: Record<string, number>;
  requests: Array<{ httpMethod: string; headers: Record<string, string> }>;
}

/** The reference server (/stateful) behind a fault-server scenario with no rules, which counts what it receives. */
export async function countedServer() {
  const { mcp, stats } = await createFaultScenario(HTTP_TEST_SERVERS.faults, { inner: 'stateful', rules: [] });
  const read = async () => (await readFaultStats(stats)) as unknown as ScenarioStats;
  return {
    mcp,
    stats: read,
    /** Handshakes: `initialize` (2025 era) and `server/discover` (the 2026-07-28 era probe). */
    handshakes: async () => {
      const { methods } = await read();
      return (methods.initialize ?? 0) + (methods['server/discover'] ?? 0);
    },
    /** The session ids the server's requests carried. */
    sessions: async () =>
      new Set((await read()).requests.flatMap((request) => request.headers['mcp-session-id'] ?? [])),
    remove: () => fetch(stats.replace(/\/stats$/, ''), { method: 'DELETE' }),
  };
}

/** A server made by {@link countedServer}. */
export type CountedServer = Awaited<ReturnType<typeof countedServer>>;

/**
 * Types into the Add form what a user may give that names no server the page
 * may reach (a `javascript:` or `data:` URL, plain http to another machine) or
 * a name that is markup (with `server`, a good URL): each is refused with its
 * typed error, nothing of it becomes an element or runs, and nothing is kept.
 */
export async function expectTypedInputRefused(page: Page, server: string): Promise<void> {
  const error = page.getByRole('form', { name: 'Add a server' }).getByRole('alert');
  const refused: [string, string, RegExp][] = [
    ['script', 'javascript:alert(1)', /^ConnectionError: .*"javascript:alert\(1\)" is not an http: or https: URL/],
    ['data', 'data:text/html,<img src=x onerror="window.owned=1">', /^ConnectionError: .*"data:text\/html,<img/],
    ['plain', 'http://example.com/mcp', /^ConnectionError: example\.com is not this machine: use https/],
    ['<img src=x onerror="window.owned=1">', server, /^ConnectionError: .*is not a server name/],
  ];
  for (const [name, url, message] of refused) {
    await addServer(page, name, url);
    await expect(error).toHaveText(message);
  }
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => 'owned' in window)).toBe(false);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('mcp:')))).toEqual([]);
}

/**
 * Adds `hostile`, a server that refuses every request (403) with markup as its
 * body: it fails, its entry shows the body as text (no element made, no script
 * run), and offers Retry.
 */
export async function expectRefusalShownAsText(page: Page): Promise<void> {
  const markup = '<img src=x onerror="window.owned=1">refused';
  const { mcp } = await createFaultScenario(HTTP_TEST_SERVERS.faults, {
    inner: 'stateful',
    rules: [{ action: { type: 'status', status: 403, body: markup } }],
  });
  await addServer(page, 'hostile', mcp);
  await expectStatus(page, 'hostile', 'failed');
  await expect(serverEntry(page, 'hostile').getByRole('alert')).toContainText(markup);
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => 'owned' in window)).toBe(false);
  await expect(serverEntry(page, 'hostile').getByRole('button', { name: 'Retry' })).toBeEnabled();
}

/**
 * Starts the OAuth test servers before the tests of the enclosing describe and
 * stops them after; returns their getter, which throws before the start.
 */
export function useAuthServers(): () => AuthServers {
  let auth: AuthServers | undefined;
  test.beforeAll(async () => {
    auth = await startAuthServers();
  });
  test.afterAll(async () => {
    await auth?.close();
  });
  return () => {
    if (!auth) throw new Error('the OAuth test servers are not started yet');
    return auth;
  };
}

/** How many times the sign-in page of `scenario`'s authorization server was asked for. */
export function signInPagesShown(scenario: AuthScenario): number {
  return scenario.stats().requests.filter((request) => request.path === '/oauth/authorize').length;
}

/**
 * Signs in for the server `reference` through the popup: it waits in
 * `authorizing` with nothing opened (the sign-in page not even asked for) until
 * the user clicks Sign in; then the popup closes itself and the server is ready.
 */
export async function signInThroughPopup(page: Page, scenario: AuthScenario): Promise<void> {
  await expectStatus(page, 'reference', 'authorizing');
  expect(signInPagesShown(scenario)).toBe(0);
  const popup = page.waitForEvent('popup');
  await serverEntry(page, 'reference').getByRole('button', { name: 'Sign in' }).click();
  await expectStatus(page, 'reference', 'ready');
  expect((await popup).isClosed()).toBe(true);
}

/** Makes `window.open` return null in `page` from its next load on, as a popup blocker does. */
export async function blockPopups(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.open = () => null;
  });
}

/**
 * Signs in for the server `reference` with popups blocked: Sign in leaves the
 * sign-in page as a link in its entry, still `authorizing`; the user follows
 * it in a tab of its own with no opener, which lands on the callback page; the
 * server is then ready.
 */
export async function signInThroughLink(page: Page): Promise<void> {
  await expectStatus(page, 'reference', 'authorizing');
  const entry = serverEntry(page, 'reference');
  await entry.getByRole('button', { name: 'Sign in' }).click();
  const link = entry.getByRole('link', { name: 'open the sign-in page' });
  await expect(link).toHaveAttribute('href', /\/oauth\/authorize\?/);
  await expectStatus(page, 'reference', 'authorizing');

  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await tab.waitForURL((landed) => landed.pathname === '/callback.html' && landed.searchParams.has('code'));
  await expect(tab.locator('body')).toContainText('go back to the chat');
  await expectStatus(page, 'reference', 'ready');
}

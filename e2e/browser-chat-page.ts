import type { Locator, Page } from '@playwright/test';
import { BROWSER_CHAT_URL, HTTP_TEST_SERVERS } from '../playwright.config';
import { createFaultScenario, readFaultStats } from '../runtimes/faults.js';
import type { MockModel, MockScript } from '../test-servers/mock-model/serve.mjs';
import { expect } from './fixtures.js';

/**
 * examples/browser-chat as a user drives it, for the specs that test it: built
 * by Vite, served on its own origin (BROWSER_CHAT_URL), talking cross-origin to
 * the MCP test servers and to the scripted mock model.
 */

/** The reference server (test-servers/http, /stateful). */
export const MCP_SERVER = `${HTTP_TEST_SERVERS.modes}/stateful`;
export const API_KEY = 'browser-chat-test-key';

/** Fills the model's settings: the mock model, with the key it wants. */
export async function fillModel(page: Page, model: MockModel): Promise<void> {
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('API key').fill(API_KEY);
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

/** Opens the chat with `script` for the model and one ready server, `reference` at `server`. */
export async function openChat(page: Page, model: MockModel, script: MockScript, server = MCP_SERVER): Promise<void> {
  model.setScript(script);
  await page.goto(`${BROWSER_CHAT_URL}/`);
  await fillModel(page, model);
  await addServer(page, 'reference', server);
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByPlaceholder('Ask something…').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** What a fault-server scenario saw: JSON-RPC methods by count, and every HTTP request. */
export interface ScenarioStats {
  methods: Record<string, number>;
  requests: Array<{ httpMethod: string }>;
}

/** A fault-server scenario with no rules: the reference server as it is, with a log of what it received. */
export async function plainScenario() {
  const { mcp, stats } = await createFaultScenario(HTTP_TEST_SERVERS.faults, { inner: 'stateful', rules: [] });
  return {
    mcp,
    stats: async () => (await readFaultStats(stats)) as unknown as ScenarioStats,
    remove: () => fetch(stats.replace(/\/stats$/, ''), { method: 'DELETE' }),
  };
}

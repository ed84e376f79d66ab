import type { Page } from '@playwright/test';
import { BROWSER_CHAT_URL, HTTP_TEST_SERVERS } from '../playwright.config';
import type { MockModel, MockScript } from '../test-servers/mock-model/serve.mjs';
import { addServer, fillModel as fillSettings } from './chat-page.js';

/**
 * examples/browser-chat as a user drives it, for the specs that test it: built
 * by Vite, served on its own origin (BROWSER_CHAT_URL), talking cross-origin to
 * the MCP test servers and to the scripted mock model. What it shares with
 * examples/react-chat's page is in chat-page.ts.
 */

/** The reference server (test-servers/http, /stateful). */
export const MCP_SERVER = `${HTTP_TEST_SERVERS.modes}/stateful`;
export const API_KEY = 'browser-chat-test-key';

/** Fills the model's settings: the mock model, with the key it wants. */
export async function fillModel(page: Page, model: MockModel): Promise<void> {
  await fillSettings(page, model, API_KEY);
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

/** What the React specs do in the test app's page, as a user would. */
import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures.js';
import type { AppServer, ReactVersion } from './app-server.js';
import type { Setup } from './setup.js';

/** Opens the app on `react`, rendering `setup`; resolves once the page runs that React. */
export async function openApp(page: Page, app: AppServer, react: ReactVersion, setup: Setup): Promise<void> {
  await page.goto(app.url(react, setup));
  await expect(page.getByRole('main')).toHaveAttribute('data-react', new RegExp(`^${react}\\.`));
}

/** Calls `tool` from a server panel's form; returns the call's list item (the newest of that tool). */
export async function callFrom(panel: Locator, tool: string, args: Record<string, unknown> = {}): Promise<Locator> {
  const form = panel.getByRole('form', { name: 'Call a tool' });
  await form.getByRole('textbox', { name: 'Tool' }).fill(tool);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(JSON.stringify(args));
  const before = await panel.getByTestId(`call-${tool}`).count();
  await form.getByRole('button', { name: 'Call' }).click();
  return panel.getByTestId(`call-${tool}`).nth(before);
}

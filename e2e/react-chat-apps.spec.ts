import { REACT_CHAT_URL } from '../playwright.config';
import { type AppsServer, startAppsServer } from '../test-servers/apps/serve.mjs';
import { type MockModel, startMockModel } from '../test-servers/mock-model/serve.mjs';
import { expect, test } from './fixtures.js';

/**
 * examples/react-chat with an MCP Apps server: a tool call of the conversation
 * whose tool has a `ui://` view shows it inline, in the sandbox proxy that
 * `vite preview` serves on the next port (another origin). The view is the
 * apps test server's counter, built on the real ext-apps `App` class.
 */

let model: MockModel;
let apps: AppsServer;
test.beforeAll(async () => {
  [model, apps] = await Promise.all([
    startMockModel({
      script: [
        { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' },
        { when: { userSays: 'Show me' }, call: [{ tool: 'show-counter', args: { start: 3 } }] },
        { reply: 'You said: {{user}}' },
      ],
    }),
    startAppsServer(),
  ]);
});
test.afterAll(async () => {
  await Promise.all([model?.close(), apps?.close()]);
});

test('a chat turn calling show-counter shows its view inline; the view’s message becomes the user’s, a link waits for consent', async ({
  page,
}) => {
  await page.goto(`${REACT_CHAT_URL}/`);
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('Model', { exact: true }).fill('mock-model');
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Name').fill('apps');
  await form.getByLabel('URL').fill(apps.url);
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('listitem', { name: 'apps', exact: true })).toHaveAttribute('data-status', 'ready');

  await page.getByLabel('Message').fill('Show me a counter');
  await page.getByRole('button', { name: 'Send' }).click();
  const card = page.getByRole('region', { name: 'Tool call show-counter' });
  await expect(card).toHaveAttribute('data-state', 'done');
  const view = card.frameLocator('iframe').frameLocator('iframe');
  await expect(view.locator('#status')).toHaveText('connected');
  await expect(view.locator('#tool-input')).toHaveText('{"start":3}');
  await expect(view.locator('#tool-result')).toHaveText('Counter shown at 3');
  // The sandbox proxy is on another origin than the chat's.
  const proxy = await card.locator('iframe').getAttribute('src');
  expect(new URL(proxy ?? '').origin).not.toBe(new URL(REACT_CHAT_URL).origin);
  // The model was offered the tool with the view, and not the app-only one its view calls.
  const offered = model.requests.at(-1)?.body?.tools?.map((tool) => tool.function.name);
  expect(offered).toContain('show-counter');
  expect(offered).not.toContain('increment');

  // An app-only tool, from the view.
  await view.locator('#increment').click();
  await expect(view.locator('#count')).toHaveText('4');

  // A link: the user is asked, says no, and the view hears the refusal.
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toContain('https://example.com/counter');
    void dialog.dismiss();
  });
  await view.locator('#link').click();
  await expect(view.locator('#outcome [data-key="link"]')).toHaveText(/^error: .*denied/);

  // The view's message is the user's next turn.
  await view.locator('#message').click();
  await expect(page.locator('.entry.user').last()).toHaveText('The counter is at 4');
  await expect(page.locator('.entry.assistant').last()).toHaveText('You said: The counter is at 4');
  await expect(view.locator('#outcome [data-key="message"]')).toHaveText('ok: {}');
});

test('README screenshot (REACT_CHAT_SCREENSHOT=1 writes examples/react-chat/screenshot-apps.png)', async ({ page }) => {
  test.skip(process.env.REACT_CHAT_SCREENSHOT !== '1', 'writes into the repository: run by hand');
  await page.setViewportSize({ width: 1100, height: 720 });
  await page.goto(`${REACT_CHAT_URL}/`);
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('Model', { exact: true }).fill('mock-model');
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Name').fill('apps');
  await form.getByLabel('URL').fill(apps.url);
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('listitem', { name: 'apps', exact: true })).toHaveAttribute('data-status', 'ready');
  await page.getByLabel('Message').fill('Show me a counter');
  await page.getByRole('button', { name: 'Send' }).click();
  const view = page
    .getByRole('region', { name: 'Tool call show-counter' })
    .frameLocator('iframe')
    .frameLocator('iframe');
  await view.locator('#increment').click();
  await expect(view.locator('#count')).toHaveText('4');
  await page.screenshot({ path: 'examples/react-chat/screenshot-apps.png' });
});

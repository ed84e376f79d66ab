import type { Page } from '@playwright/test';
import { HTTP_TEST_SERVERS, REACT_CHAT_URL } from '../playwright.config';
import { type MockModel, type MockScript, startMockModel } from '../test-servers/mock-model/serve.mjs';
import {
  addServer,
  blockPopups,
  type CountedServer,
  countedServer,
  expectRefusalShownAsText,
  expectStatus,
  expectTypedInputRefused,
  fillModel as fillSettings,
  serverEntry,
  signInPagesShown,
  signInThroughLink,
  signInThroughPopup,
  useAuthServers,
} from './chat-page.js';
import { expect, test } from './fixtures.js';

/**
 * examples/react-chat as a user drives it: built by Vite, served by `vite
 * preview` on its own origin (REACT_CHAT_URL), talking cross-origin to the MCP
 * test servers and to the scripted mock model. What its page shares with
 * examples/browser-chat's is in chat-page.ts.
 */

const API_KEY = 'react-chat-test-key';
/** After a tool turn the mock quotes the tool's result, so the answer proves the result reached the model. */
const QUOTE_TOOL = { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' } as const;
const SCRIPT: MockScript = [
  QUOTE_TOOL,
  { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 4, intervalMs: 400 } }] },
  { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'still here' } }] },
  { when: { userSays: 'ask me' }, call: [{ tool: 'elicit', args: { message: 'Who are you, <b>really</b>?' } }] },
  { when: { userSays: 'Write a haiku' }, reply: 'Autumn moonlight / a worm digs silently / into the chestnut' },
  { when: { userSays: 'poem' }, call: [{ tool: 'sample', args: { prompt: 'Write a haiku' } }] },
  { reply: 'You said: {{user}}' },
];

let model: MockModel;
test.beforeAll(async () => {
  model = await startMockModel({ apiKey: API_KEY, script: SCRIPT });
});
test.afterAll(async () => {
  await model?.close();
});

async function fillModel(page: Page): Promise<void> {
  await fillSettings(page, model, API_KEY);
}

/** The chat with the model filled in and one server, `reference` at `url`, added. */
async function openChat(page: Page, url: string): Promise<void> {
  await page.goto(`${REACT_CHAT_URL}/`);
  await fillModel(page);
  await addServer(page, 'reference', url);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const lastAnswer = (page: Page) => page.locator('.entry.assistant').last();

/**
 * Runs `body` on the chat with one server, `reference`, counted at the server and ready; then checks that
 * nothing since made a new handshake and that every request went on the one session.
 */
async function onOneSession(page: Page, body: (server: CountedServer) => Promise<void>): Promise<void> {
  const server = await countedServer();
  try {
    await openChat(page, server.mcp);
    await expectStatus(page, 'reference', 'ready');
    const handshakes = await server.handshakes();
    expect(handshakes).toBeGreaterThan(0);
    await body(server);
    expect(await server.handshakes()).toBe(handshakes);
    expect((await server.sessions()).size).toBe(1);
  } finally {
    await server.remove();
  }
}

test('a server added by URL shows ready, and a chat turn calls its tool with its arguments, progress and result', async ({
  page,
}) => {
  await openChat(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
  await expectStatus(page, 'reference', 'ready');
  await expect(serverEntry(page, 'reference')).toContainText(/Ready: .* 11 tools\./);
  await expect(page.locator('.tools li')).toHaveCount(11);

  await send(page, 'Run the slow tool');
  const card = page.getByRole('region', { name: 'Tool call slow' });
  await expect(card.locator('.input')).toHaveText(JSON.stringify({ steps: 4, intervalMs: 400 }, null, 2));
  await expect(card.locator('.progress-message')).toHaveText(/step [1-3] of 4/);
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.locator('.output')).toHaveText('done after 4 steps');
  await expect(lastAnswer(page)).toHaveText(/^The tool said: .*done after 4 steps/);
  // The model was offered the server's tools and given the tool's result.
  const request = model.requests.at(-1)?.body;
  expect(request?.tools?.map((tool) => tool.function.name)).toContain('slow');
  expect(request?.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('done after 4') });
});

test("an elicitation becomes a form from the server's schema, and the answer reaches the server", async ({ page }) => {
  await openChat(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
  await expectStatus(page, 'reference', 'ready');
  await send(page, 'Please ask me my name');
  const form = page.getByRole('form', { name: 'reference asks' });
  // The server's message is text, never markup.
  await expect(form).toContainText('Who are you, <b>really</b>?');
  await expect(form.locator('b')).toHaveCount(0);
  const submit = form.getByRole('button', { name: 'Submit' });
  await submit.click(); // the required field is empty: the browser keeps the form
  await expect(form).toBeVisible();
  await form.getByLabel('name *').fill('Ada');
  await submit.click();
  await expect(form).toHaveCount(0); // answered: it left the server's pending requests
  const card = page.getByRole('region', { name: 'Tool call elicit' });
  await expect(card.locator('.output')).toHaveText('{"action":"accept","content":{"name":"Ada"}}');
  await expect(lastAnswer(page)).toHaveText(/^The tool said: .*accept.*Ada/);

  await send(page, 'ask me again');
  await page.getByRole('form', { name: 'reference asks' }).getByRole('button', { name: 'Decline' }).click();
  await expect(lastAnswer(page)).toHaveText(/^The tool said: .*decline/);
});

test('a sampling request is shown for approval, and approved, the chat model answers it', async ({ page }) => {
  await openChat(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
  await expectStatus(page, 'reference', 'ready');
  const seen = model.requests.length;
  await send(page, 'Get the server to write a poem');
  const request = page.getByRole('region', { name: 'reference asks to use your model' });
  await expect(request.locator('li')).toHaveText('user: Write a haiku');
  await expect(request).toContainText('Up to 100 tokens.');
  const sampled = () =>
    model.requests.slice(seen).filter((entry) => entry.body?.messages.at(-1)?.content === 'Write a haiku');
  expect(sampled()).toHaveLength(0); // nothing sampled before the user says yes
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('region', { name: 'Tool call sample' }).locator('.output')).toHaveText(
    /Autumn moonlight/,
  );
  await expect(request).toHaveCount(0);
  expect(sampled()).toHaveLength(1);
});

test('after a reload the servers come back from localStorage and resume their sessions, with no new handshake', async ({
  page,
}) => {
  await onOneSession(page, async () => {
    await page.reload();
    await expectStatus(page, 'reference', 'ready');
    await expect(page.locator('.tools li')).toHaveCount(11);
    // The resumed session carries a tool call.
    await fillModel(page);
    await send(page, 'echo, please');
    await expect(lastAnswer(page)).toHaveText(/^The tool said: .*still here/);
  });
});

test('a server the browser cannot reach shows reconnecting with the next attempt, then ready on the same session', async ({
  page,
}) => {
  await onOneSession(page, async (server) => {
    // The network to the MCP server fails (the model is still there); the next tool call finds it out.
    const unreachable = `${new URL(server.mcp).origin}/**`;
    await page.route(unreachable, (route) => route.abort('connectionrefused'));
    await send(page, 'echo, please');
    const entry = serverEntry(page, 'reference');
    await expectStatus(page, 'reference', 'reconnecting');
    await expect(entry).toContainText(/Reconnecting: attempt \d+ at \d/);
    // A page cannot tell a refused connection from a CORS refusal: the error says both, and the cause.
    await expect(entry).toContainText(/CorsError: .*\(cause: Failed to fetch\)/);
    // No server ready: no tools to offer, and nothing to send.
    await expect(page.locator('.tools li')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();

    await page.unroute(unreachable);
    await entry.getByRole('button', { name: 'Retry now' }).click();
    await expectStatus(page, 'reference', 'ready');
    await expect(page.locator('.tools li')).toHaveCount(11);
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
    await send(page, 'echo again');
    await expect(page.getByRole('region', { name: 'Tool call echo' }).last()).toHaveAttribute('data-state', 'done');
    // The session came back with the server (onOneSession checks): no new handshake, one session throughout.
  });
});

test.describe('what a user types or a server says', () => {
  test('a typed URL that is not http(s), or plain http to another machine, is refused with its typed error', async ({
    page,
  }) => {
    await page.goto(`${REACT_CHAT_URL}/`);
    await expectTypedInputRefused(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
    await expect(page.locator('.servers li')).toHaveCount(0);
  });

  test("a server's refusal shows as text in the panel, never as markup, with Retry", async ({ page }) => {
    await page.goto(`${REACT_CHAT_URL}/`);
    await expectRefusalShownAsText(page);
    await serverEntry(page, 'hostile').getByRole('button', { name: 'Remove' }).click();
    await expect(page.locator('.servers li')).toHaveCount(0);
  });
});

test.describe('sign-in', () => {
  const auth = useAuthServers();

  test('a protected server waits for Sign in, whose click opens the popup, then comes ready', async ({ page }) => {
    const scenario = await auth().createScenario();
    await openChat(page, scenario.info().mcp);
    await signInThroughPopup(page, scenario);
    await send(page, 'echo, please');
    await expect(lastAnswer(page)).toHaveText(/^The tool said: .*still here/);
    expect(scenario.stats().registrations[0]?.metadata.redirect_uris).toEqual([`${REACT_CHAT_URL}/callback.html`]);
  });

  test('a blocked popup leaves the sign-in page as a link, and following it signs the user in', async ({ page }) => {
    const scenario = await auth().createScenario();
    await blockPopups(page);
    await openChat(page, scenario.info().mcp);
    await signInThroughLink(page);
    await send(page, 'echo, please');
    await expect(lastAnswer(page)).toHaveText(/^The tool said: .*still here/);
    expect(signInPagesShown(scenario)).toBe(1);
  });
});

test('README screenshot (REACT_CHAT_SCREENSHOT=1 writes examples/react-chat/screenshot.png)', async ({ page }) => {
  test.skip(process.env.REACT_CHAT_SCREENSHOT !== '1', 'writes into the repository: run by hand');
  model.setScript([
    { when: { last: 'tool', toolSays: 'steps' }, reply: 'The slow tool finished all four steps.' },
    { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 4, intervalMs: 200 } }] },
    { when: { userSays: 'name' }, call: [{ tool: 'elicit', args: { message: 'What name should I sign with?' } }] },
  ]);
  try {
    await page.setViewportSize({ width: 1100, height: 680 });
    await openChat(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
    await expectStatus(page, 'reference', 'ready');
    await send(page, 'Run the slow tool, please.');
    await expect(lastAnswer(page)).toHaveText(/finished/);
    await send(page, 'Sign the report with my name.');
    await page.getByRole('form', { name: 'reference asks' }).getByLabel('name *').fill('Ada Lovelace');
    await page.screenshot({ path: 'examples/react-chat/screenshot.png' });
  } finally {
    model.setScript(SCRIPT);
  }
});

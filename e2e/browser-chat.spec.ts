import type { Page } from '@playwright/test';
import { BROWSER_CHAT_URL } from '../playwright.config';
import { type FormsServer, startFormsServer } from '../test-servers/forms/serve.mjs';
import { type MockModel, type MockScript, startMockModel } from '../test-servers/mock-model/serve.mjs';
import { API_KEY, fillModel, openChat, send } from './browser-chat-page.js';
import {
  addServer,
  countedServer,
  expectStatus,
  serverEntry,
  signInThroughPopup,
  useAuthServers,
} from './chat-page.js';
import { expect, test } from './fixtures.js';

/**
 * examples/browser-chat as a user drives it (see browser-chat-page.ts): one
 * server added in the panel, named `reference`, and the chat over its tools.
 * browser-chat-servers.spec.ts tests the panel itself.
 */

/** After a tool turn the mock quotes the tool's result, so the answer proves the result reached the model. */
const QUOTE_TOOL = { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' } as const;
/** "slow" runs a tool that takes 20 s (long enough to stop or remove its server while it runs); anything else is echoed. */
const LONG_SLOW_SCRIPT: MockScript = [
  QUOTE_TOOL,
  { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 100, intervalMs: 200 } }] },
  { reply: 'You said: {{user}}' },
];

let model: MockModel;
/** How many requests the model had seen when this test began. */
let seen = 0;
test.beforeAll(async () => {
  model = await startMockModel({ apiKey: API_KEY });
});
test.afterAll(async () => {
  await model?.close();
});

/** The chat with `script`, once its server (`reference` at `server`) is ready. */
async function ready(page: Page, script: MockScript, server?: string) {
  seen = model.requests.length;
  await openChat(page, model, script, server);
  await expectStatus(page, 'reference', 'ready');
}

/** The chat requests the model saw whose last message is a user's (not a tool result). */
const userTurns = () => model.requests.slice(seen).filter((request) => request.body?.messages.at(-1)?.role === 'user');

test('connects across origins, lists the tools, and a tool result reaches the model and the page as text', async ({
  page,
}) => {
  await ready(page, [
    QUOTE_TOOL,
    { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: '<img src=x onerror="window.owned=1">hi' } }] },
  ]);
  await expect(serverEntry(page, 'reference')).toContainText('Ready: mcp-reference-server');
  await expect(page.locator('#tools li')).toHaveCount(11);

  await send(page, 'Please echo something');
  const card = page.getByRole('region', { name: 'Tool call echo' });
  await expect(card.locator('.output')).toHaveText(/<img src=x onerror="window.owned=1">hi/);
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*onerror=.*hi/);
  // What the server and the model sent stayed text: no element was made from it, no script ran.
  await expect(page.locator('#log img')).toHaveCount(0);
  expect(await page.evaluate(() => 'owned' in window)).toBe(false);

  const [first] = userTurns();
  expect(first?.authorization).toBe(`Bearer ${API_KEY}`);
  expect(first?.body?.tools?.map((tool) => tool.function.name)).toContain('echo');
  const toolMessage = model.requests.at(-1)?.body?.messages.find((message) => message.role === 'tool');
  expect(JSON.stringify(toolMessage?.content)).toContain('onerror');
});

test("shows the server's progress while a tool runs", async ({ page }) => {
  await ready(page, [
    QUOTE_TOOL,
    { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 4, intervalMs: 400 } }] },
  ]);
  await send(page, 'Run the slow tool');
  const card = page.getByRole('region', { name: 'Tool call slow' });
  // Seen while the tool still runs: progress is live, not a summary afterwards.
  await expect(card.locator('.progress-message')).toHaveText(/step [1-3] of 4/);
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(card.locator('.output')).toHaveText(/done after 4 steps/);
  await expect(card.locator('.progress-message')).toHaveText('step 4 of 4');
  expect(await card.locator('progress').evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])).toEqual([4, 4]);
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*done after 4 steps/);
});

test('two tools running at once each show their own progress', async ({ page }) => {
  await ready(page, [
    QUOTE_TOOL,
    {
      when: { userSays: 'both' },
      call: [
        { tool: 'slow', args: { steps: 3, intervalMs: 500 } },
        { tool: 'slow', args: { steps: 6, intervalMs: 250 } },
      ],
    },
  ]);
  await send(page, 'Run both slow tools');
  const [three, six] = [0, 1].map((index) => page.getByRole('region', { name: 'Tool call slow' }).nth(index));
  // Both running, each card with its own call's steps.
  await expect(three!.locator('.progress-message')).toHaveText(/step [1-2] of 3/);
  await expect(six!.locator('.progress-message')).toHaveText(/step [1-5] of 6/);
  await expect(three!).toHaveAttribute('data-state', 'running');
  await expect(three!.locator('.output')).toHaveText(/done after 3 steps/);
  await expect(six!.locator('.output')).toHaveText(/done after 6 steps/);
  await expect(three!.locator('.progress-message')).toHaveText('step 3 of 3');
  await expect(six!.locator('.progress-message')).toHaveText('step 6 of 6');
});

test('Stop ends the turn while a tool runs, the server hears the cancellation, and the next message works', async ({
  page,
}) => {
  const scenario = await countedServer();
  await ready(page, LONG_SLOW_SCRIPT, scenario.mcp);
  await send(page, 'Run the slow tool');
  const card = page.getByRole('region', { name: 'Tool call slow' });
  await expect(card.locator('.progress-message')).toHaveText(/step \d+ of 100/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(page.locator('.entry.note').last()).toHaveText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  await expect
    .poll(async () => (await scenario.stats()).methods)
    .toMatchObject({ 'tools/call': 1, 'notifications/cancelled': 1 });

  const asked = model.requests.length;
  await send(page, 'hello again');
  await expect(page.locator('.entry.assistant').last()).toHaveText('You said: hello again');
  // The stopped turn stayed out of the history: the model saw no half-finished tool call.
  const messages = model.requests.slice(asked).at(-1)?.body?.messages ?? [];
  expect(messages.map((message) => message.role)).toEqual(['user']);
  await scenario.remove();
});

test('Add (double-clicked) adds one server; removing it during a turn stops the turn and ends its session', async ({
  page,
}) => {
  const scenario = await countedServer();
  const stats = async () => {
    const { methods, requests } = await scenario.stats();
    const deletes = requests.filter((request) => request.httpMethod === 'DELETE').length;
    return { initialize: methods.initialize ?? 0, cancelled: methods['notifications/cancelled'] ?? 0, deletes };
  };
  model.setScript(LONG_SLOW_SCRIPT);
  await page.goto(`${BROWSER_CHAT_URL}/`);
  await fillModel(page, model);
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Name').fill('reference');
  await form.getByLabel('URL').fill(scenario.mcp);
  // The first click disables Add until the server is added: one server, one handshake.
  await form.getByRole('button', { name: 'Add' }).dblclick();
  await expectStatus(page, 'reference', 'ready');
  await expect(page.locator('#servers li')).toHaveCount(1);
  await expect(form.locator('.error')).toHaveText('');
  await expect.poll(stats).toEqual({ initialize: 1, cancelled: 0, deletes: 0 });

  // Removing the server during a turn stops the turn (its call cancelled on the server), then ends the session.
  await send(page, 'Run the slow tool');
  const card = page.getByRole('region', { name: 'Tool call slow' });
  await expect(card.locator('.progress-message')).toHaveText(/step \d+ of 100/);
  await serverEntry(page, 'reference').getByRole('button', { name: 'Remove' }).click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(page.locator('.entry.note').last()).toHaveText('Stopped.');
  await expect(page.locator('#servers li')).toHaveCount(0);
  await expect(page.locator('#tools li')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect.poll(stats).toEqual({ initialize: 1, cancelled: 1, deletes: 1 });

  // Added again, it connects afresh; its turns own Send and Stop; the stopped turn stayed out of the history.
  await addServer(page, 'reference', scenario.mcp);
  await expectStatus(page, 'reference', 'ready');
  await expect.poll(stats).toEqual({ initialize: 2, cancelled: 1, deletes: 1 });
  await send(page, 'Run the slow tool again');
  await expect(page.getByRole('region', { name: 'Tool call slow' }).nth(1).locator('.progress-message')).toHaveText(
    /step \d+ of 100/,
  );
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  const asked = model.requests.length;
  await send(page, 'hello again');
  await expect(page.locator('.entry.assistant').last()).toHaveText('You said: hello again');
  const messages = model.requests.slice(asked).at(-1)?.body?.messages ?? [];
  expect(messages.map((message) => message.role)).toEqual(['user']);
  await scenario.remove();
});

test('a model that never stops calling tools is cut off after MAX_STEPS (8) steps', async ({ page }) => {
  await ready(page, [{ call: [{ tool: 'echo', args: { text: 'again' } }] }]);
  await send(page, 'Loop forever');
  await expect(page.locator('.entry.note')).toHaveText('Stopped after 8 steps.');
  await expect(page.getByRole('region', { name: 'Tool call echo' })).toHaveCount(8);
  expect(model.requests.length - seen).toBe(8);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
});

test('an elicitation becomes a form; required fields are enforced; accept, decline and cancel reach the server', async ({
  page,
}) => {
  await ready(page, [
    QUOTE_TOOL,
    { when: { userSays: 'ask me' }, call: [{ tool: 'elicit', args: { message: 'Who are you, <b>really</b>?' } }] },
  ]);
  await send(page, 'Please ask me my name');
  const form = page.getByRole('form', { name: 'The server asks' });
  await expect(form).toContainText('Who are you, <b>really</b>?');
  const submit = form.getByRole('button', { name: 'Submit' });
  await submit.click(); // the required field is empty: the browser keeps the form open
  await expect(submit).toBeEnabled();
  await form.getByLabel('name *').fill('Ada');
  await submit.click();
  await expect(form.locator('.status')).toHaveText('Sent.');
  const card = page.getByRole('region', { name: 'Tool call elicit' });
  await expect(card.locator('.output')).toHaveText('{"action":"accept","content":{"name":"Ada"}}');
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*accept.*Ada/);

  await send(page, 'ask me again');
  const second = page.getByRole('form', { name: 'The server asks' }).nth(1);
  await second.getByRole('button', { name: 'Decline' }).click();
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*decline/);

  await send(page, 'ask me once more');
  await page.getByRole('form', { name: 'The server asks' }).nth(2).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*cancel/);
});

/** Every field kind a form may hold (2025-11-25 elicitation schemas), asked by test-servers/forms. */
const EVERY_FIELD = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: true },
    colour: { type: 'string', title: 'Colour', enum: ['r', 'g', 'b'], enumNames: ['Red', 'Green', 'Blue'] },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b', 'c'] } },
    email: { type: 'string', title: 'Email', format: 'email', description: 'We never write.' },
    when: { type: 'string', title: 'When', format: 'date-time', default: '2026-03-01T09:30:00Z' },
  },
  required: ['name', 'age', 'size'],
};

test.describe('forms', () => {
  let forms: FormsServer;
  test.beforeAll(async () => {
    forms = await startFormsServer();
  });
  test.afterAll(async () => {
    await forms?.close();
  });

  test('strings, numbers, booleans and choices become controls whose values reach the server typed', async ({
    page,
  }) => {
    await ready(
      page,
      [QUOTE_TOOL, { when: { userSays: 'form' }, call: [{ tool: 'ask', args: { requestedSchema: EVERY_FIELD } }] }],
      forms.url,
    );
    await expect(serverEntry(page, 'reference')).toContainText('Ready: forms-test-server');
    await send(page, 'Show me the form');
    const form = page.getByRole('form', { name: 'The server asks' });
    await form.getByLabel('Name *').fill('Ada');
    await form.getByLabel('Age *').fill('200'); // past maximum: the browser refuses to submit
    await expect(form.getByLabel('Subscribe')).toBeChecked(); // the default
    await form.getByLabel('Subscribe').uncheck();
    await form.getByLabel('Colour').selectOption({ label: 'Green' });
    await form.getByLabel('Size *').selectOption({ label: 'Large' });
    await form.getByLabel('Tags').selectOption(['a', 'c']);
    await expect(form.getByLabel('Email')).toHaveAttribute('type', 'email');
    // The UTC default, shown in the page's time zone (the control holds no offset).
    const shown = await page.evaluate(() => {
      const date = new Date('2026-03-01T09:30:00Z');
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`; // Chromium drops ":00" seconds
    });
    await expect(form.getByLabel('When')).toHaveValue(shown);
    const submit = form.getByRole('button', { name: 'Submit' });
    await submit.click();
    await expect(submit).toBeEnabled();
    await form.getByLabel('Age *').fill('36');
    await submit.click();
    const card = page.getByRole('region', { name: 'Tool call ask' });
    await expect(card).toHaveAttribute('data-state', 'done');
    // The optional email left empty is left out, not sent as ""; the date-time goes back as RFC 3339.
    const answer = JSON.parse((await card.locator('.output').textContent()) ?? '');
    expect(answer).toEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        age: 36,
        subscribe: false,
        colour: 'g',
        size: 'l',
        tags: ['a', 'c'],
        when: '2026-03-01T09:30:00.000Z',
      },
    });
    expect(answer.content.when).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  });
});

/** The server's `sample` tool asks the client to sample "Write a haiku"; the mock answers that with a poem. */
const SAMPLING_SCRIPT: MockScript = [
  QUOTE_TOOL,
  { when: { userSays: 'Write a haiku' }, reply: 'Autumn moonlight / a worm digs silently / into the chestnut' },
  { when: { userSays: 'poem' }, call: [{ tool: 'sample', args: { prompt: 'Write a haiku' } }] },
];

test('a sampling request is shown first and, approved, answered by the same model endpoint', async ({ page }) => {
  await ready(page, SAMPLING_SCRIPT);
  await send(page, 'Get the server to write a poem');
  const request = page.getByRole('region', { name: 'Sampling request' });
  await expect(request.locator('li')).toHaveText('user: Write a haiku');
  await expect(request).toContainText('Up to 100 tokens.');
  expect(userTurns()).toHaveLength(1); // nothing sampled before the user says yes
  await request.getByRole('button', { name: 'Approve' }).click();
  const card = page.getByRole('region', { name: 'Tool call sample' });
  await expect(card.locator('.output')).toHaveText(/Autumn moonlight/);
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*Autumn moonlight/);
  const sampled = userTurns().find((turn) => turn.body?.messages.at(-1)?.content === 'Write a haiku');
  expect(sampled?.body?.max_tokens).toBe(100);
  expect(sampled?.body?.tools).toBeUndefined();
});

test('a declined sampling request reaches the server as a refusal and the model is never asked', async ({ page }) => {
  await ready(page, SAMPLING_SCRIPT);
  await send(page, 'Get the server to write a poem');
  const request = page.getByRole('region', { name: 'Sampling request' });
  await request.getByRole('button', { name: 'Decline' }).click();
  await expect(request.locator('.status')).toHaveText('Declined.');
  const card = page.getByRole('region', { name: 'Tool call sample' });
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.locator('.output')).toHaveText(/User rejected sampling request/);
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*User rejected sampling request/);
  expect(userTurns().some((turn) => turn.body?.messages.at(-1)?.content === 'Write a haiku')).toBe(false);
});

test('a sampling request withdrawn (its server removed) closes with its buttons disabled, and the model is never asked', async ({
  page,
}) => {
  await ready(page, SAMPLING_SCRIPT);
  await send(page, 'Get the server to write a poem');
  const request = page.getByRole('region', { name: 'Sampling request' });
  await expect(request.locator('li')).toHaveText('user: Write a haiku');
  await serverEntry(page, 'reference').getByRole('button', { name: 'Remove' }).click();
  await expect(request.locator('.status')).toHaveText('Withdrawn.');
  await expect(request.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(request.getByRole('button', { name: 'Decline' })).toBeDisabled();
  expect(userTurns().some((turn) => turn.body?.messages.at(-1)?.content === 'Write a haiku')).toBe(false);
});

test.describe('OAuth', () => {
  const auth = useAuthServers();

  test('a protected server waits for Sign in, whose click opens the popup, then the chat uses it', async ({ page }) => {
    const scenario = await auth().createScenario();
    const script: MockScript = [
      QUOTE_TOOL,
      { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'signed in' } }] },
    ];
    await openChat(page, model, script, scenario.info().mcp);
    await signInThroughPopup(page, scenario);
    await send(page, 'echo please');
    await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*signed in/);
    const registration = scenario.stats().registrations[0];
    expect(registration?.metadata.redirect_uris).toEqual([`${BROWSER_CHAT_URL}/callback.html`]);
  });
});

test('README screenshot (BROWSER_CHAT_SCREENSHOT=1 writes examples/browser-chat/screenshot.png)', async ({ page }) => {
  test.skip(process.env.BROWSER_CHAT_SCREENSHOT !== '1', 'writes into the repository: run by hand');
  await page.setViewportSize({ width: 1100, height: 700 });
  await ready(page, [
    { when: { last: 'tool', toolSays: 'steps' }, reply: 'The slow tool finished all three steps.' },
    { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 3, intervalMs: 200 } }] },
    { when: { userSays: 'name' }, call: [{ tool: 'elicit', args: { message: 'What name should I sign with?' } }] },
  ]);
  await send(page, 'Run the slow tool, please.');
  await expect(page.locator('.entry.assistant')).toHaveText(/finished/);
  await send(page, 'Sign the report with my name.');
  await page.getByRole('form', { name: 'The server asks' }).getByLabel('name *').fill('Ada Lovelace');
  await page.screenshot({ path: 'examples/browser-chat/screenshot.png' });
});

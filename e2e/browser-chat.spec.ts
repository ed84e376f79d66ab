import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { build } from 'esbuild';
import { BROWSER_CHAT_URL, HTTP_TEST_SERVERS } from '../playwright.config';
import { createFaultScenario, readFaultStats } from '../runtimes/faults.js';
import { type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { type FormsServer, startFormsServer } from '../test-servers/forms/serve.mjs';
import { type MockModel, type MockScript, startMockModel } from '../test-servers/mock-model/serve.mjs';
import { expect, test } from './fixtures.js';

/**
 * examples/browser-chat as a user drives it: built by Vite, served on its own
 * origin (BROWSER_CHAT_URL), talking cross-origin to a reference MCP server
 * (test-servers/http, /stateful) and to the scripted mock model.
 */
const MCP_SERVER = `${HTTP_TEST_SERVERS.modes}/stateful`;
const API_KEY = 'browser-chat-test-key';

/** After a tool turn the mock quotes the tool's result, so the answer proves the result reached the model. */
const QUOTE_TOOL = { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' } as const;
/** "slow" runs a tool that takes 20 s (long enough to stop or reconnect while it runs); anything else is echoed. */
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

async function openChat(page: Page, script: MockScript, server = MCP_SERVER) {
  model.setScript(script);
  seen = model.requests.length;
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${BROWSER_CHAT_URL}/`);
  await page.getByLabel('URL', { exact: true }).fill(server);
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('API key').fill(API_KEY);
  await page.getByLabel('Model', { exact: true }).fill('mock-model');
  await page.getByRole('button', { name: 'Connect' }).click();
  return errors;
}

async function send(page: Page, text: string) {
  await page.getByPlaceholder('Ask something…').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The chat requests the model saw whose last message is a user's (not a tool result). */
const userTurns = () => model.requests.slice(seen).filter((request) => request.body?.messages.at(-1)?.role === 'user');

/** What a fault-server scenario saw: JSON-RPC methods by count, and every HTTP request. */
interface ScenarioStats {
  methods: Record<string, number>;
  requests: Array<{ httpMethod: string }>;
}

/** A fault-server scenario with no rules: the reference server as it is, with a log of what it received. */
async function plainScenario() {
  const { mcp, stats } = await createFaultScenario(HTTP_TEST_SERVERS.faults, { inner: 'stateful', rules: [] });
  return {
    mcp,
    stats: async () => (await readFaultStats(stats)) as unknown as ScenarioStats,
    remove: () => fetch(stats.replace(/\/stats$/, ''), { method: 'DELETE' }),
  };
}

test('connects across origins, lists the tools, and a tool result reaches the model and the page as text', async ({
  page,
}) => {
  const errors = await openChat(page, [
    QUOTE_TOOL,
    { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: '<img src=x onerror="window.owned=1">hi' } }] },
  ]);
  await expect(page.getByRole('status')).toHaveText(/Connected to mcp-reference-server/);
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
  expect(errors).toEqual([]);
});

test("shows the server's progress while a tool runs", async ({ page }) => {
  await openChat(page, [
    QUOTE_TOOL,
    { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 4, intervalMs: 400 } }] },
  ]);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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
  await openChat(page, [
    QUOTE_TOOL,
    {
      when: { userSays: 'both' },
      call: [
        { tool: 'slow', args: { steps: 3, intervalMs: 500 } },
        { tool: 'slow', args: { steps: 6, intervalMs: 250 } },
      ],
    },
  ]);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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
  const scenario = await plainScenario();
  await openChat(page, LONG_SLOW_SCRIPT, scenario.mcp);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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

test('Connect again (double-clicked, then during a turn) keeps one client: the old one closed, its turn stopped', async ({
  page,
}) => {
  const scenario = await plainScenario();
  const stats = async () => {
    const { methods, requests } = await scenario.stats();
    const deletes = requests.filter((request) => request.httpMethod === 'DELETE').length;
    return { initialize: methods.initialize ?? 0, cancelled: methods['notifications/cancelled'] ?? 0, deletes };
  };
  await openChat(page, LONG_SLOW_SCRIPT, scenario.mcp);
  const connect = page.getByRole('button', { name: 'Connect' });
  await expect(page.getByRole('status')).toHaveText(/Connected/);

  // A double click connects once more, not twice: the first click disables the button.
  await connect.dblclick();
  await expect(page.getByRole('status')).toHaveText(/Connected/);
  await expect(connect).toBeEnabled();
  await expect.poll(stats).toEqual({ initialize: 2, cancelled: 0, deletes: 1 });

  // Connecting during a turn stops the turn (its call cancelled on the server), then closes that client.
  await send(page, 'Run the slow tool');
  const card = page.getByRole('region', { name: 'Tool call slow' });
  await expect(card.locator('.progress-message')).toHaveText(/step \d+ of 100/);
  await connect.click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(page.locator('.entry.note').last()).toHaveText('Stopped.');
  await expect(page.getByRole('status')).toHaveText(/Connected/);
  await expect.poll(stats).toEqual({ initialize: 3, cancelled: 1, deletes: 2 });

  // The new connection's turns own Send and Stop; the stopped turn stayed out of the history.
  await send(page, 'Run the slow tool again');
  await expect(page.getByRole('region', { name: 'Tool call slow' }).nth(1).locator('.progress-message')).toHaveText(
    /step \d+ of 100/,
  );
  await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();
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
  await openChat(page, [{ call: [{ tool: 'echo', args: { text: 'again' } }] }]);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
  await send(page, 'Loop forever');
  await expect(page.locator('.entry.note')).toHaveText('Stopped after 8 steps.');
  await expect(page.getByRole('region', { name: 'Tool call echo' })).toHaveCount(8);
  expect(model.requests.length - seen).toBe(8);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
});

test('an elicitation becomes a form; required fields are enforced; accept, decline and cancel reach the server', async ({
  page,
}) => {
  await openChat(page, [
    QUOTE_TOOL,
    { when: { userSays: 'ask me' }, call: [{ tool: 'elicit', args: { message: 'Who are you, <b>really</b>?' } }] },
  ]);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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
    await openChat(
      page,
      [QUOTE_TOOL, { when: { userSays: 'form' }, call: [{ tool: 'ask', args: { requestedSchema: EVERY_FIELD } }] }],
      forms.url,
    );
    await expect(page.getByRole('status')).toHaveText(/Connected to forms-test-server/);
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
  await openChat(page, SAMPLING_SCRIPT);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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
  await openChat(page, SAMPLING_SCRIPT);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
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

test('a sampling request already withdrawn when it reaches the page is refused at once, not left pending', async ({
  page,
}) => {
  // src/sampling.ts on its own, bundled for the browser as Vite would, on a page with the transcript element.
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../examples/browser-chat/src/sampling.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    write: false,
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  await page.setContent('<div id="log"></div>');
  await page.addScriptTag({ type: 'module', content: `${code}\nwindow.samplingWithApproval = samplingWithApproval;` });
  await page.waitForFunction(() => 'samplingWithApproval' in window);
  const outcome = await page.evaluate(async () => {
    type Handler = (request: unknown, context: { signal: AbortSignal }) => Promise<unknown>;
    const make = (window as unknown as { samplingWithApproval: (model: () => never) => Handler }).samplingWithApproval;
    const handler = make(() => {
      throw new Error('the model must not be asked');
    });
    const withdrawn = new AbortController();
    withdrawn.abort();
    const request = { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 100 };
    const answered = handler(request, { signal: withdrawn.signal }).then(
      () => 'answered',
      (error: Error) => `${error.name}: ${error.message}`,
    );
    const pending = new Promise((resolve) => setTimeout(() => resolve('still pending'), 1_000));
    return Promise.race([answered, pending]);
  });
  expect(outcome).toBe('RpcError: User rejected sampling request (-1)');
  await expect(page.locator('.entry.sampling .status')).toHaveText('Withdrawn by the server.');
  await expect(page.getByRole('button', { name: 'Approve' })).toBeDisabled();
});

test.describe('OAuth', () => {
  let auth: AuthServers;
  test.beforeAll(async () => {
    auth = await startAuthServers();
  });
  test.afterAll(async () => {
    await auth?.close();
  });

  test('a protected server signs the user in through a popup, then the chat uses it', async ({ page }) => {
    const scenario = await auth.createScenario();
    const popup = page.waitForEvent('popup');
    await openChat(
      page,
      [QUOTE_TOOL, { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'signed in' } }] }],
      scenario.info().mcp,
    );
    await expect(page.getByRole('status')).toHaveText(/Connected/);
    expect((await popup).isClosed()).toBe(true);
    await send(page, 'echo please');
    await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*signed in/);
    const registration = scenario.stats().registrations[0];
    expect(registration?.metadata.redirect_uris).toEqual([`${BROWSER_CHAT_URL}/callback.html`]);
  });
});

test('README screenshot (BROWSER_CHAT_SCREENSHOT=1 writes examples/browser-chat/screenshot.png)', async ({ page }) => {
  test.skip(process.env.BROWSER_CHAT_SCREENSHOT !== '1', 'writes into the repository: run by hand');
  await page.setViewportSize({ width: 1100, height: 700 });
  await openChat(page, [
    { when: { last: 'tool', toolSays: 'steps' }, reply: 'The slow tool finished all three steps.' },
    { when: { userSays: 'slow' }, call: [{ tool: 'slow', args: { steps: 3, intervalMs: 200 } }] },
    { when: { userSays: 'name' }, call: [{ tool: 'elicit', args: { message: 'What name should I sign with?' } }] },
  ]);
  await expect(page.getByRole('status')).toHaveText(/Connected/);
  await send(page, 'Run the slow tool, please.');
  await expect(page.locator('.entry.assistant')).toHaveText(/finished/);
  await send(page, 'Sign the report with my name.');
  await page.getByRole('form', { name: 'The server asks' }).getByLabel('name *').fill('Ada Lovelace');
  await page.screenshot({ path: 'examples/browser-chat/screenshot.png' });
});

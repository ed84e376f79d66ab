import { BROWSER_CHAT_URL, HTTP_TEST_SERVERS } from '../playwright.config';
import { startCable } from '../test-servers/cable.mjs';
import { type MockModel, type MockScript, startMockModel } from '../test-servers/mock-model/serve.mjs';
import { API_KEY, fillModel, MCP_SERVER, openChat, send } from './browser-chat-page.js';
import {
  addServer,
  blockPopups,
  countedServer,
  expectRefusalShownAsText,
  expectStatus,
  expectTypedInputRefused,
  serverEntry,
  signInPagesShown,
  signInThroughLink,
  useAuthServers,
} from './chat-page.js';
import { expect, test } from './fixtures.js';

// examples/browser-chat's server panel, on its Servers set kept in localStorage: what a reload keeps, a server
// that drops and comes back, a blocked sign-in popup, and what a user or another script may put in.

const ECHO_SCRIPT: MockScript = [
  { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' },
  { when: { userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'still here' } }] },
];

let model: MockModel;
test.beforeAll(async () => {
  model = await startMockModel({ apiKey: API_KEY });
});
test.afterAll(async () => {
  await model?.close();
});

test('after a reload the page comes back with its servers and resumes their sessions, with no new handshake', async ({
  page,
}) => {
  const scenario = await countedServer();
  await openChat(page, model, ECHO_SCRIPT, scenario.mcp);
  await expectStatus(page, 'reference', 'ready');
  await expect(page.locator('#tools li')).toHaveCount(11);
  // The era probe (server/discover) and the 2025 handshake (initialize), once each.
  const handshaken = await scenario.handshakes();
  expect(handshaken).toBe(2);

  await page.reload();
  await expectStatus(page, 'reference', 'ready');
  await expect(page.locator('#tools li')).toHaveCount(11);
  // The chat works on the resumed session: a tool call goes through after the reload.
  await fillModel(page, model);
  await send(page, 'echo, please');
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
  expect(await scenario.handshakes()).toBe(handshaken);
  expect((await scenario.sessions()).size).toBe(1);
  await scenario.remove();
});

test('two tabs keep a session each: both hear a tool added, a reload makes no handshake, Remove in one spares the other', async ({
  context,
}) => {
  const scenario = await countedServer();
  const script: MockScript = [...ECHO_SCRIPT, { when: { userSays: 'grow' }, call: [{ tool: 'add-tool', args: {} }] }];
  const first = await context.newPage();
  await openChat(first, model, script, scenario.mcp);
  await expectStatus(first, 'reference', 'ready');
  // The second tab restores the server from the configs the tabs share.
  const second = await context.newPage();
  await second.goto(`${BROWSER_CHAT_URL}/`);
  await fillModel(second, model);
  await expectStatus(second, 'reference', 'ready');

  // Each tab has the server add a tool to its session, and hears it on its own stream: no reload.
  for (const page of [first, second]) {
    await expect(page.locator('#tools li')).toHaveCount(11);
    await send(page, 'grow, please');
    await expect(page.getByRole('region', { name: 'Tool call add-tool' })).toHaveAttribute('data-state', 'done');
    await expect(page.locator('#tools li')).toHaveCount(12);
  }

  // Two sessions at the server, one in each tab's sessionStorage, none in the localStorage they share.
  /** The session a tab keeps for the server, in its own sessionStorage. */
  const sessionOf = (page: typeof first) =>
    page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('mcp:session:reference') ?? 'null') as {
        sessionId?: string;
      } | null;
      return stored?.sessionId;
    });
  const [one, two] = [await sessionOf(first), await sessionOf(second)];
  expect(await scenario.sessions()).toEqual(new Set([one, two]));
  expect(one).not.toBe(two);
  expect(await first.evaluate(() => localStorage.getItem('mcp:session:reference'))).toBeNull();

  // A reload of one tab resumes its own session, with no handshake.
  const handshaken = await scenario.handshakes();
  await first.reload();
  await expectStatus(first, 'reference', 'ready');
  await expect(first.locator('#tools li')).toHaveCount(12);
  expect(await sessionOf(first)).toBe(one);
  expect(await scenario.handshakes()).toBe(handshaken);

  // Remove in the second tab ends its session only: the first one's goes on.
  await serverEntry(second, 'reference').getByRole('button', { name: 'Remove' }).click();
  await expect(second.locator('#servers li')).toHaveCount(0);
  await fillModel(first, model);
  await send(first, 'echo, please');
  await expect(first.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
  await expectStatus(first, 'reference', 'ready');
  const ended = (await scenario.stats()).requests.filter((request) => request.httpMethod === 'DELETE');
  expect(ended.map((request) => request.headers['mcp-session-id'])).toEqual([two]);
  // The list the tabs share no longer has the server: the first tab drops it at its next load.
  await first.reload();
  await expect(first.getByRole('form', { name: 'Add a server' })).toBeVisible();
  await expect(first.locator('#servers li')).toHaveCount(0);
  await scenario.remove();
});

test('a server whose network drops shows reconnecting with the next attempt, then ready when it comes back', async ({
  page,
}) => {
  const scenario = await countedServer();
  const cable = await startCable(HTTP_TEST_SERVERS.faults);
  try {
    await openChat(page, model, ECHO_SCRIPT, scenario.mcp.replace(HTTP_TEST_SERVERS.faults, cable.origin));
    await expectStatus(page, 'reference', 'ready');
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();

    // The network drops; the next call finds it out, and the server is reconnecting.
    cable.unplug();
    await send(page, 'echo, please');
    await expect(page.getByRole('region', { name: 'Tool call echo' })).toHaveAttribute('data-state', 'error');
    const entry = serverEntry(page, 'reference');
    await expectStatus(page, 'reference', 'reconnecting');
    await expect(entry).toContainText(/Reconnecting: attempt \d+ at \d/);
    // No server ready: no tools to offer, and no turn to start.
    await expect(page.locator('#tools li')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();

    cable.plug();
    await expect(entry).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
    await expect(page.locator('#tools li')).toHaveCount(11);
    await send(page, 'echo again');
    await expect(page.getByRole('region', { name: 'Tool call echo' }).nth(1)).toHaveAttribute('data-state', 'done');
    // The session came back with the server: no second handshake.
    expect(await scenario.handshakes()).toBe(2);
  } finally {
    await cable.close();
    await scenario.remove();
  }
});

test.describe('sign-in', () => {
  const auth = useAuthServers();

  test('a blocked popup leaves the sign-in page as a link, and following it signs the user in', async ({ page }) => {
    const scenario = await auth().createScenario();
    await blockPopups(page);
    await openChat(page, model, ECHO_SCRIPT, scenario.info().mcp);
    await signInThroughLink(page);
    await send(page, 'echo, please');
    await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
    expect(signInPagesShown(scenario)).toBe(1);
  });

  test('two tabs, one server: the second waits for the sign-in the first runs, and both end ready with one sign-in', async ({
    context,
  }) => {
    const scenario = await auth().createScenario();
    const first = await context.newPage();
    await openChat(first, model, ECHO_SCRIPT, scenario.info().mcp);
    await expectStatus(first, 'reference', 'authorizing');
    await expect(serverEntry(first, 'reference').getByRole('button', { name: 'Sign in' })).toBeVisible();

    // The second tab restores the same server from localStorage; the first one holds its sign-in.
    const second = await context.newPage();
    await second.goto(`${BROWSER_CHAT_URL}/`);
    await expectStatus(second, 'reference', 'authorizing');
    await expect(serverEntry(second, 'reference')).toContainText('Signing in in another tab');
    await expect(serverEntry(second, 'reference').getByRole('button', { name: 'Sign in' })).toHaveCount(0);

    const popup = context.waitForEvent('page');
    await serverEntry(first, 'reference').getByRole('button', { name: 'Sign in' }).click();
    await popup;
    await expectStatus(first, 'reference', 'ready');
    // The second tab connects with the tokens the first one stored: it never showed a sign-in of its own.
    await expectStatus(second, 'reference', 'ready');
    expect(signInPagesShown(scenario)).toBe(1);
  });
});

test.describe('what a user or another script puts in', () => {
  test('a typed URL that is not http(s), or plain http to another machine, is refused with its typed error', async ({
    page,
  }) => {
    await page.goto(`${BROWSER_CHAT_URL}/`);
    await expectTypedInputRefused(page, MCP_SERVER);
    await expect(page.locator('#servers li')).toHaveCount(0);
  });

  test("what a server says (its refusal's body) shows as text in the panel, never as markup", async ({ page }) => {
    await page.goto(`${BROWSER_CHAT_URL}/`);
    await expectRefusalShownAsText(page);
  });

  test('garbage another script left in localStorage is reported, and the page loads the servers that are sound', async ({
    page,
  }) => {
    await page.goto(`${BROWSER_CHAT_URL}/`);
    await page.evaluate((good) => {
      localStorage.setItem('mcp:configs', JSON.stringify(['good', 'evil', 'broken', '../../etc', 'good']));
      localStorage.setItem('mcp:config:good', JSON.stringify({ name: 'good', url: good }));
      localStorage.setItem('mcp:config:evil', JSON.stringify({ name: 'evil', url: 'javascript:alert(1)' }));
      localStorage.setItem('mcp:config:broken', '{"name": "broken", "url": ');
      // Sessions are each tab's own, in sessionStorage.
      sessionStorage.setItem('mcp:session:good', '{"sessionId": 42}');
    }, MCP_SERVER);
    await page.reload();
    await expectStatus(page, 'good', 'ready');
    await expect(page.locator('#servers li')).toHaveCount(1);
    const notices = page.locator('#notices li');
    await expect(notices.filter({ hasText: '"evil"' })).toContainText('is not an http: or https: URL');
    await expect(notices.filter({ hasText: '"broken"' })).toContainText('is not usable');
    await expect(notices.filter({ hasText: '"../../etc"' })).toContainText('is not a server name');

    // A list that is no list: nothing is restored, the user is told, and adding a server still works.
    await page.evaluate(() => localStorage.setItem('mcp:configs', '{"good": true}'));
    await page.reload();
    await expect(page.locator('#notices li')).toContainText(['mcp:configs is not a list of names']);
    await expect(page.locator('#servers li')).toHaveCount(0);
    await addServer(page, 'again', MCP_SERVER);
    await expectStatus(page, 'again', 'ready');
  });
});

import { BROWSER_CHAT_URL, HTTP_TEST_SERVERS } from '../playwright.config';
import { createFaultScenario, readFaultStats } from '../runtimes/faults.js';
import { type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { startCable } from '../test-servers/cable.mjs';
import { type MockModel, type MockScript, startMockModel } from '../test-servers/mock-model/serve.mjs';
import {
  API_KEY,
  addServer,
  expectStatus,
  fillModel,
  MCP_SERVER,
  openChat,
  plainScenario,
  send,
  serverEntry,
} from './browser-chat-page.js';
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

/** Handshakes a scenario's server saw: `initialize` (2025 era) and `server/discover` (2026-07-28). */
async function handshakes(scenario: Awaited<ReturnType<typeof plainScenario>>): Promise<number> {
  const { methods } = await scenario.stats();
  return (methods.initialize ?? 0) + (methods['server/discover'] ?? 0);
}

test('after a reload the page comes back with its servers and resumes their sessions, with no new handshake', async ({
  page,
}) => {
  const scenario = await plainScenario();
  await openChat(page, model, ECHO_SCRIPT, scenario.mcp);
  await expectStatus(page, 'reference', 'ready');
  await expect(page.locator('#tools li')).toHaveCount(11);
  // The era probe (server/discover) and the 2025 handshake (initialize), once each.
  const handshaken = await handshakes(scenario);
  expect(handshaken).toBe(2);

  await page.reload();
  await expectStatus(page, 'reference', 'ready');
  await expect(page.locator('#tools li')).toHaveCount(11);
  // The chat works on the resumed session: a tool call goes through after the reload.
  await fillModel(page, model);
  await send(page, 'echo, please');
  await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
  expect(await handshakes(scenario)).toBe(handshaken);
  const { requests } = (await readFaultStats(scenario.mcp.replace(/\/mcp$/, '/stats'))) as {
    requests: Array<{ headers: Record<string, string> }>;
  };
  const sessions = new Set(requests.flatMap((request) => request.headers['mcp-session-id'] ?? []));
  expect(sessions.size).toBe(1);
  await scenario.remove();
});

test('two tabs keep a session each: both hear a tool added, a reload makes no handshake, Remove in one spares the other', async ({
  context,
}) => {
  const scenario = await plainScenario();
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
  const seen = async () => {
    const { requests } = (await readFaultStats(scenario.mcp.replace(/\/mcp$/, '/stats'))) as {
      requests: Array<{ httpMethod: string; headers: Record<string, string> }>;
    };
    return requests;
  };
  const sessionsSeen = async () =>
    new Set((await seen()).flatMap((request) => request.headers['mcp-session-id'] ?? []));
  /** The session a tab keeps for the server, in its own sessionStorage. */
  const sessionOf = (page: typeof first) =>
    page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('mcp:session:reference') ?? 'null') as {
        sessionId?: string;
      } | null;
      return stored?.sessionId;
    });
  const [one, two] = [await sessionOf(first), await sessionOf(second)];
  expect(await sessionsSeen()).toEqual(new Set([one, two]));
  expect(one).not.toBe(two);
  expect(await first.evaluate(() => localStorage.getItem('mcp:session:reference'))).toBeNull();

  // A reload of one tab resumes its own session, with no handshake.
  const handshaken = await handshakes(scenario);
  await first.reload();
  await expectStatus(first, 'reference', 'ready');
  await expect(first.locator('#tools li')).toHaveCount(12);
  expect(await sessionOf(first)).toBe(one);
  expect(await handshakes(scenario)).toBe(handshaken);

  // Remove in the second tab ends its session only: the first one's goes on.
  await serverEntry(second, 'reference').getByRole('button', { name: 'Remove' }).click();
  await expect(second.locator('#servers li')).toHaveCount(0);
  await fillModel(first, model);
  await send(first, 'echo, please');
  await expect(first.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
  await expectStatus(first, 'reference', 'ready');
  const ended = (await seen()).filter((request) => request.httpMethod === 'DELETE');
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
  const scenario = await plainScenario();
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
    expect(await handshakes(scenario)).toBe(2);
  } finally {
    await cable.close();
    await scenario.remove();
  }
});

test.describe('sign-in', () => {
  let auth: AuthServers;
  test.beforeAll(async () => {
    auth = await startAuthServers();
  });
  test.afterAll(async () => {
    await auth?.close();
  });

  test('a blocked popup leaves the sign-in page as a link, and following it signs the user in', async ({ page }) => {
    const scenario = await auth.createScenario();
    await page.addInitScript(() => {
      window.open = () => null; // as a popup blocker does
    });
    await openChat(page, model, ECHO_SCRIPT, scenario.info().mcp);
    await expectStatus(page, 'reference', 'authorizing');
    const entry = serverEntry(page, 'reference');
    await entry.getByRole('button', { name: 'Sign in' }).click();
    const link = entry.getByRole('link', { name: 'open the sign-in page' });
    await expect(link).toHaveAttribute('href', /\/oauth\/authorize\?/);
    await expectStatus(page, 'reference', 'authorizing');

    // The user follows the link: the sign-in page, then the callback, in a tab of their own with no opener.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL((landed) => landed.pathname === '/callback.html' && landed.searchParams.has('code'));
    await expect(tab.locator('body')).toContainText('go back to the chat');
    await expectStatus(page, 'reference', 'ready');
    await send(page, 'echo, please');
    await expect(page.locator('.entry.assistant').last()).toHaveText(/^The tool said: .*still here/);
    expect(scenario.stats().requests.filter((request) => request.path === '/oauth/authorize')).toHaveLength(1);
  });

  test('two tabs, one server: the second waits for the sign-in the first runs, and both end ready with one sign-in', async ({
    context,
  }) => {
    const scenario = await auth.createScenario();
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
    expect(scenario.stats().requests.filter((request) => request.path === '/oauth/authorize')).toHaveLength(1);
  });
});

test.describe('what a user or another script puts in', () => {
  test('a typed URL that is not http(s), or plain http to another machine, is refused with its typed error', async ({
    page,
  }) => {
    await page.goto(`${BROWSER_CHAT_URL}/`);
    const error = page.getByRole('form', { name: 'Add a server' }).locator('.error');
    const refused: [string, string, RegExp][] = [
      ['script', 'javascript:alert(1)', /^ConnectionError: .*"javascript:alert\(1\)" is not an http: or https: URL/],
      ['data', 'data:text/html,<img src=x onerror="window.owned=1">', /^ConnectionError: .*"data:text\/html,<img/],
      ['plain', 'http://example.com/mcp', /^ConnectionError: example\.com is not this machine: use https/],
      ['<img src=x onerror="window.owned=1">', MCP_SERVER, /^ConnectionError: .*is not a server name/],
    ];
    for (const [name, url, message] of refused) {
      await addServer(page, name, url);
      await expect(error).toHaveText(message);
    }
    await expect(page.locator('#servers li')).toHaveCount(0);
    // What was typed stayed text, and nothing of it was kept.
    await expect(page.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => 'owned' in window)).toBe(false);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('mcp:')))).toEqual([]);
  });

  test("what a server says (its refusal's body) shows as text in the panel, never as markup", async ({ page }) => {
    const markup = '<img src=x onerror="window.owned=1">refused';
    const { mcp } = await createFaultScenario(HTTP_TEST_SERVERS.faults, {
      inner: 'stateful',
      rules: [{ action: { type: 'status', status: 403, body: markup } }],
    });
    await page.goto(`${BROWSER_CHAT_URL}/`);
    await addServer(page, 'hostile', mcp);
    await expectStatus(page, 'hostile', 'failed');
    await expect(serverEntry(page, 'hostile').getByRole('alert')).toContainText(markup);
    await expect(page.locator('#servers img')).toHaveCount(0);
    expect(await page.evaluate(() => 'owned' in window)).toBe(false);
    await expect(serverEntry(page, 'hostile').getByRole('button', { name: 'Retry' })).toBeEnabled();
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

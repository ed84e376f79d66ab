import type { Page } from '@playwright/test';
import { type HttpServers, startHttpServers } from '../test-servers/http/serve.mjs';
import { expect, test } from './fixtures.js';
import { type AppServer, REACT_VERSIONS, type ReactVersion, startAppServer } from './react/app-server.js';
import { callFrom, openApp } from './react/drive-app.js';
import type { ProviderSetup } from './react/setup.js';

// @mcp/react's hooks (built) in Chromium, on React 18 and 19: e2e/react/app.tsx renders what useMcp and
// useMcpServers return; each test reads the DOM and what the reference server behind a fault scenario saw.

let app: AppServer;
let http: HttpServers;
test.beforeAll(async () => {
  [app, http] = await Promise.all([startAppServer(), startHttpServers()]);
});
test.afterAll(async () => {
  await Promise.all([app?.close(), http?.close()]);
});

/** A server of its own for one test: the reference server (sessions, SSE) behind a scenario with no rules. */
function server() {
  const { id, path } = http.faultHandler.createScenario({ inner: 'stateful', rules: [] });
  const stats = () => {
    const seen = http.faultHandler.stats(id);
    if (!seen) throw new Error(`fault scenario ${id} is gone`);
    return seen;
  };
  /**
   * What the server saw of handshakes: each new connection probes the era with `server/discover` (unless
   * it knows the era) and, this server being of the 2025 era, opens its session with `initialize`.
   */
  const handshakes = () => {
    const { methods } = stats();
    return { discover: methods['server/discover'] ?? 0, initialize: methods.initialize ?? 0 };
  };
  return { url: `${http.faults}${path}`, stats, handshakes };
}

/**
 * The app on `react` with one provider whose set holds `notes`, a server of its own (the provider's
 * other settings from `provider`), once the panel of `notes` shows it ready.
 */
async function readyNotes(page: Page, react: ReactVersion, provider: Partial<ProviderSetup> = {}) {
  const notes = server();
  await openApp(page, app, react, {
    providers: [{ id: 'app', servers: [{ name: 'notes', url: notes.url }], ...provider }],
  });
  const panel = page.getByTestId('server-notes');
  await expect(panel.getByTestId('status')).toHaveText('ready');
  return { notes, panel };
}

for (const react of REACT_VERSIONS) {
  test.describe(`React ${react}`, () => {
    test('a tool list that changes (add-tool) re-renders in useMcp and useMcpServers, with no reload', async ({
      page,
    }) => {
      const { notes, panel } = await readyNotes(page, react);
      await expect(panel.getByTestId('server-info')).toHaveText('mcp-reference-server (legacy)');
      await expect(panel.getByTestId('tools').locator('li')).toHaveCount(11);
      await expect(page.getByTestId('servers')).toHaveText('notes: ready');
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      const listed = notes.stats().methods['tools/list'] ?? 0;

      await expect((await callFrom(panel, 'add-tool')).locator('output')).toHaveText('added');
      await expect(panel.getByTestId('tools').locator('li')).toHaveCount(12);
      await expect(panel.getByTestId('tools').locator('li').last()).toHaveText('dynamic-1');
      await expect(page.getByTestId('set-tools').locator('li').last()).toHaveText('dynamic-1');
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
      // The server said its list changed, and the client listed it again on the same session.
      expect(notes.handshakes().initialize).toBe(1);
      expect(notes.stats().methods['tools/list']).toBeGreaterThan(listed);
    });

    test("callTool through the hook: progress as it runs; Abort rejects with the abort's reason and cancels at the server", async ({
      page,
    }) => {
      const { notes, panel } = await readyNotes(page, react);

      const short = await callFrom(panel, 'slow', { steps: 3, intervalMs: 100 });
      await expect(short.locator('output')).toHaveText('done after 3 steps');
      await expect(short.getByTestId('progress')).toHaveText('step 3 of 3');
      await expect(short).toHaveAttribute('data-state', 'done');

      const long = await callFrom(panel, 'slow', { steps: 100, intervalMs: 100 });
      // Seen while the call still runs: progress is live, not a summary afterwards.
      await expect(long.getByTestId('progress')).toHaveText(/^step \d+ of 100$/);
      await expect(long).toHaveAttribute('data-state', 'running');
      await long.getByRole('button', { name: 'Abort' }).click();
      await expect(long).toHaveAttribute('data-state', 'error');
      await expect(long.locator('output')).toHaveText('Error: Stopped by the user');
      await expect.poll(() => notes.stats().methods).toMatchObject({ 'tools/call': 2, 'notifications/cancelled': 1 });
    });

    test('an elicitation answered through the hook’s pending list; a sampling request approved, then declined', async ({
      page,
    }) => {
      const { panel } = await readyNotes(page, react);
      const pending = panel.getByTestId('pending');

      const asked = await callFrom(panel, 'elicit', { message: 'Who are you?' });
      const form = pending.getByRole('form', { name: 'The server asks' });
      await expect(form.getByTestId('message')).toHaveText('Who are you?');
      await form.getByLabel('name').fill('Ada');
      await form.getByRole('button', { name: 'Submit' }).click();
      // What the server's tool returns is the answer it received.
      await expect(asked.locator('output')).toHaveText('{"action":"accept","content":{"name":"Ada"}}');
      await expect(pending.locator('li')).toHaveCount(0);

      const refused = await callFrom(panel, 'elicit');
      await pending.getByRole('button', { name: 'Decline' }).click();
      await expect(refused.locator('output')).toHaveText('{"action":"decline"}');

      const sampled = await callFrom(panel, 'sample', { prompt: 'Write a haiku' });
      await expect(pending.getByTestId('sampling').getByTestId('message')).toHaveText('Write a haiku');
      await expect(sampled).toHaveAttribute('data-state', 'running');
      await pending.getByRole('button', { name: 'Approve' }).click();
      await expect(sampled.locator('output')).toHaveText('A reply approved in the page');
      await expect(sampled).toHaveAttribute('data-state', 'done');
      await expect(pending.locator('li')).toHaveCount(0);

      const declined = await callFrom(panel, 'sample', { prompt: 'Write another' });
      await pending.getByRole('button', { name: 'Decline' }).click();
      await expect(declined).toHaveAttribute('data-state', 'error');
      await expect(declined.locator('output')).toHaveText(/User rejected sampling request/);
      await expect(pending.locator('li')).toHaveCount(0);
    });

    test('StrictMode mounts twice and opens one connection per server: the provider’s set and a useMcp(config) of its own', async ({
      page,
    }) => {
      const inSet = server();
      const own = server();
      await openApp(page, app, react, {
        strict: true,
        providers: [{ id: 'app', servers: [{ name: 'notes', url: inSet.url }] }],
        own: [{ name: 'own', url: own.url }],
      });
      for (const [name, notes] of [
        ['notes', inSet],
        ['own', own],
      ] as const) {
        const panel = page.getByTestId(`server-${name}`);
        await expect(panel.getByTestId('status')).toHaveText('ready');
        // A round trip after ready: a second connection started by the extra mount would have shown by now.
        await expect((await callFrom(panel, 'echo', { text: name })).locator('output')).toHaveText(name);
        expect(notes.handshakes()).toEqual({ discover: 1, initialize: 1 });
        expect(notes.stats().sessions).toBe(1);
        // Nothing ended a session: the extra unmount closed no connection.
        expect(notes.stats().requests.filter((request) => request.httpMethod === 'DELETE')).toEqual([]);
      }
    });

    test('two providers on one page each hold their own set: same server name, other servers, independent', async ({
      page,
    }) => {
      const left = server();
      const right = server();
      await openApp(page, app, react, {
        providers: [
          { id: 'left', servers: [{ name: 'notes', url: left.url }] },
          { id: 'right', servers: [{ name: 'notes', url: right.url }] },
        ],
      });
      const [leftPanel, rightPanel] = ['left', 'right'].map((id) => page.getByTestId(id).getByTestId('server-notes'));
      for (const panel of [leftPanel, rightPanel]) await expect(panel!.getByTestId('status')).toHaveText('ready');
      await expect(page.getByTestId('left').getByTestId('servers')).toHaveText('notes: ready');
      await expect(page.getByTestId('right').getByTestId('servers')).toHaveText('notes: ready');

      await expect((await callFrom(leftPanel!, 'add-tool')).locator('output')).toHaveText('added');
      await expect(leftPanel!.getByTestId('tools').locator('li')).toHaveCount(12);
      await expect(page.getByTestId('left').getByTestId('set-tools').locator('li')).toHaveCount(12);
      // The other set heard nothing of it, and its server never saw the call.
      await expect(rightPanel!.getByTestId('tools').locator('li')).toHaveCount(11);
      await expect(page.getByTestId('right').getByTestId('set-tools').locator('li')).toHaveCount(11);
      expect([left.handshakes().initialize, right.handshakes().initialize]).toEqual([1, 1]);
      expect(right.stats().methods['tools/call']).toBeUndefined();
    });

    test('a reload with a LocalStorageStore resumes the session: no new handshake, and calls go on', async ({
      page,
    }) => {
      const { notes, panel } = await readyNotes(page, react, { store: 'local' });
      await expect((await callFrom(panel, 'echo', { text: 'before' })).locator('output')).toHaveText('before');
      expect(notes.handshakes()).toEqual({ discover: 1, initialize: 1 });
      const session = notes.stats().requests.at(-1)?.headers['mcp-session-id'];
      expect(session).toBeTruthy();

      await page.reload();
      await expect(page.getByTestId('servers')).toHaveText('notes: ready');
      await expect(panel.getByTestId('tools').locator('li')).toHaveCount(11);
      await expect((await callFrom(panel, 'echo', { text: 'after' })).locator('output')).toHaveText('after');
      // Neither the era probe nor the handshake again: both came back from localStorage.
      expect(notes.handshakes()).toEqual({ discover: 1, initialize: 1 });
      const after = notes
        .stats()
        .requests.filter((request) => request.method === 'tools/call')
        .at(-1);
      expect(after?.headers['mcp-session-id']).toBe(session);
    });
  });
}

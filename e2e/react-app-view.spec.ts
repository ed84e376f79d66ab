import type { Page } from '@playwright/test';
import { type AppsServer, startAppsServer } from '../test-servers/apps/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../test-servers/recording-proxy.mjs';
import { expect, test } from './fixtures.js';
import { type AppServer, REACT_VERSIONS, type ReactVersion, startAppServer } from './react/app-server.js';
import { openApp } from './react/drive-app.js';
import type { ViewSetup } from './react/setup.js';
import { hostSandboxProxy, SANDBOX_PROXY_PATH } from './support/sandbox-proxy.js';

// <McpAppView> of @mcp/react (built) in Chromium, on React 18 and 19: e2e/react/app-views.tsx renders
// views of the apps test server's tools, whose views are built on the real ext-apps `App` class. The
// sandbox proxy is the built page, served on `localhost` (the app is on 127.0.0.1): another origin.

let app: AppServer;
let apps: AppsServer;
test.beforeAll(async () => {
  [app, apps] = await Promise.all([startAppServer(), startAppsServer()]);
});
test.afterAll(async () => {
  await Promise.all([app?.close(), apps?.close()]);
});

test.beforeEach(async ({ page }) => {
  // In each sandbox proxy frame, before its own script: the method of every message the host sent it, in order.
  await page.addInitScript((proxyPath) => {
    if (location.pathname !== proxyPath) return;
    const fromHost: string[] = [];
    Object.assign(window, { fromHost });
    window.addEventListener('message', (event) => {
      const method = event.data?.method;
      // The proxy's own handshake is not for the view.
      if (event.source === window.parent && !String(method).startsWith('ui/notifications/sandbox-')) {
        fromHost.push(method ?? 'response');
      }
    });
  }, SANDBOX_PROXY_PATH);
});

/** The apps server behind a proxy that counts what the page asked it, made again for each test. */
let door: RecordingProxy | undefined;
test.afterEach(async () => {
  await door?.close();
  door = undefined;
});

async function openViews(page: Page, react: ReactVersion, views: ViewSetup[], strict = false): Promise<void> {
  door = await startRecordingProxy(apps.url);
  const sandbox = await hostSandboxProxy(page.context(), app.origin, [app.origin]);
  await openApp(page, app, react, {
    strict,
    providers: [],
    views: { sandbox, server: { name: 'apps', url: door.url }, views },
  });
}

const section = (page: Page, id: string) => page.getByTestId(`view-${id}`);
/** The view's document: the iframe inside the sandbox proxy's iframe, in the view's section. */
const view = (page: Page, id: string) => section(page, id).frameLocator('iframe').frameLocator('iframe');
const proxyFrames = (page: Page) => page.frames().filter((frame) => frame.url().includes(SANDBOX_PROXY_PATH));
/** What the (only) sandbox proxy relayed from the host. */
const fromHost = (page: Page) =>
  proxyFrames(page)[0]?.evaluate(() => (window as unknown as { fromHost: string[] }).fromHost) ?? [];
const hostAnswers = (page: Page) => page.evaluate(() => (window as unknown as { hostAnswers: unknown[] }).hostAnswers);

/** Clicks a counter-view button and returns its outcome (`ok: …` or `error: …`). */
async function press(page: Page, id: string, button: string): Promise<string> {
  await view(page, id).locator(`#${button}`).click();
  const outcome = view(page, id).locator(`#outcome [data-key="${button}"]`);
  await expect(outcome).toHaveText(/^(ok|error)/);
  return (await outcome.textContent()) ?? '';
}

const COUNTER: ViewSetup = { id: 'counter', tool: 'show-counter', arguments: { start: 5 } };

for (const react of REACT_VERSIONS) {
  test.describe(`React ${react}`, () => {
    test('a real ext-apps view gets the streamed input, the input, the result and a theme change; it calls an app tool and sends a message', async ({
      page,
    }) => {
      await openViews(page, react, [{ ...COUNTER, partial: { start: 1 } }]);
      const counter = section(page, 'counter');
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await expect(view(page, 'counter').locator('#theme')).toHaveText('light');
      await expect.poll(() => fromHost(page)).toEqual(['response', 'ui/notifications/tool-input-partial']);

      await counter.getByRole('button', { name: 'Finish input' }).click();
      await expect(view(page, 'counter').locator('#tool-input')).toHaveText('{"start":5}');
      await counter.getByRole('button', { name: 'Run' }).click();
      await expect(view(page, 'counter').locator('#tool-result')).toHaveText('Counter shown at 5');
      expect(await fromHost(page)).toEqual([
        'response',
        'ui/notifications/tool-input-partial',
        'ui/notifications/tool-input',
        'ui/notifications/tool-result',
      ]);

      await counter.getByRole('button', { name: 'Theme' }).click();
      await expect(view(page, 'counter').locator('#theme')).toHaveText('dark');
      expect((await fromHost(page)).at(-1)).toBe('ui/notifications/host-context-changed');

      // `increment` is visible to the app only: the view may call it.
      expect(await press(page, 'counter', 'increment')).toBe('ok: 6');
      expect(await press(page, 'counter', 'message')).toBe('ok: {}');
      await expect(counter.getByTestId('messages').locator('li')).toHaveText(['The counter is at 6']);
      await expect(counter.locator('[data-mcp-app-view]')).toHaveAttribute('data-state', 'ready');
    });

    test('a cancelled call reaches the view as tool-cancelled, after the input', async ({ page }) => {
      await openViews(page, react, [COUNTER]);
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await section(page, 'counter').getByRole('button', { name: 'Cancel' }).click();
      await expect(view(page, 'counter').locator('#tool-result')).toHaveText(/^cancelled/);
      expect(await fromHost(page)).toEqual([
        'response',
        'ui/notifications/tool-input',
        'ui/notifications/tool-cancelled',
      ]);
    });

    test('under StrictMode the double effect mounts one view: one iframe, no teardown, nothing left behind', async ({
      page,
    }) => {
      await openViews(page, react, [COUNTER], true);
      const counter = section(page, 'counter');
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await counter.getByRole('button', { name: 'Unmount' }).click();
      await expect(page.locator('iframe')).toHaveCount(0);
      const answers = await hostAnswers(page);
      // Mounted again with the server ready: StrictMode runs the view's effect, its cleanup, and the effect again.
      await counter.getByRole('button', { name: 'Mount' }).click();
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await expect.poll(() => fromHost(page)).toEqual(['response', 'ui/notifications/tool-input']);
      expect(await press(page, 'counter', 'increment')).toBe('ok: 6');
      await expect(page.locator('iframe')).toHaveCount(1);
      expect(proxyFrames(page)).toHaveLength(1);
      expect(await hostAnswers(page)).toEqual(answers);
      await expect(page.locator('[data-mcp-app-teardown] *')).toHaveCount(0);
      // One host per mount read the view: a second one, torn down before its frame went in, would have read it too.
      expect(door?.count('resources/read')).toBe(2);
    });

    test('unmounting sends ui/resource-teardown, the view answers while its iframe still runs, then the iframe goes', async ({
      page,
    }) => {
      await openViews(page, react, [COUNTER]);
      const counter = section(page, 'counter');
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await counter.getByRole('button', { name: 'Unmount' }).click();
      // ext-apps' App answers ui/resource-teardown after its onteardown handler returned.
      await expect.poll(() => hostAnswers(page)).toEqual([{ id: 'host-1', result: {}, iframes: 1 }]);
      await expect(page.locator('iframe')).toHaveCount(0);
      expect(proxyFrames(page)).toHaveLength(0);
      await expect(page.locator('[data-mcp-app-teardown] *')).toHaveCount(0);

      await counter.getByRole('button', { name: 'Mount' }).click();
      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      await expect(page.locator('iframe')).toHaveCount(1);
    });

    test('a view that never initializes is replaced by the error element; a second view on the page still works', async ({
      page,
    }) => {
      await openViews(page, react, [
        { id: 'hostile', tool: 'hostile-never-initialize', limits: { initializeTimeoutMs: 1_500 } },
        { ...COUNTER, arguments: { start: 1 } },
      ]);
      const hostile = section(page, 'hostile');
      await expect(hostile.getByRole('alert')).toHaveAttribute('data-mcp-app-error', 'initialize_timeout');
      await expect(hostile.getByRole('alert')).toContainText('did not initialize within 1500 ms');
      await expect(hostile.getByTestId('errors').locator('li')).toHaveText(['AppViewError initialize_timeout']);
      await expect(hostile.locator('iframe')).toHaveCount(0);
      await expect(hostile.locator('[data-mcp-app-view]')).toHaveAttribute('data-state', 'failed');

      await expect(view(page, 'counter').locator('#status')).toHaveText('connected');
      expect(await press(page, 'counter', 'increment')).toBe('ok: 2');
      await expect(section(page, 'counter').getByRole('alert')).toHaveCount(0);
    });
  });
}

import type { Frame, Page } from '@playwright/test';
import { type AppsServer, startAppsServer } from '../test-servers/apps/serve.mjs';
import { expect, test } from './fixtures.js';

// AppHost (@mcp/core/apps, built) in Chromium against the apps test server, whose views are built on the
// real ext-apps `App` class: the lifecycle in the spec's order, and each thing a well-behaved view asks
// for, through the app's policy hooks. The host page is on 127.0.0.1; the sandbox proxy page is served
// by the same static server under the name localhost, so on another origin, as the spec requires.
// Hostile views are e2e/apps-sandbox-*.spec.ts's.

const PAGE = '/runtimes/browser/scenarios.html';
const CORE_ENTRY = '/packages/core/dist/bundle/index.js';
const APPS_ENTRY = '/packages/core/dist/bundle/apps.js';
const PROXY_PATH = '/e2e/apps-host/sandbox-proxy.html';

let server: AppsServer;
test.beforeAll(async () => {
  server = await startAppsServer();
});
test.afterAll(async () => {
  await server?.close();
});

/** What the page's AppHost is given, in serialisable form. */
interface MountOptions {
  tool: string;
  arguments?: Record<string, unknown>;
  /** Sent with `sendToolInputPartial` and `sendToolInput` (twice) before `mount()`, instead of `toolCall.arguments`. */
  streamed?: { partial: Record<string, unknown>; final: Record<string, unknown> };
  consentToLinks?: boolean;
  limits?: Record<string, number>;
}

/** What the page recorded: the app's hooks, the host's events, and how `mount()` ended. */
interface Recorded {
  hooks: Array<{ hook: string; value: unknown }>;
  events: Array<Record<string, unknown>>;
  mounted: string;
}

/**
 * Opens the host page and mounts one view with an AppHost whose policy records every hook call.
 * Resolves once `mount()` settled; `window.host` is the AppHost.
 */
async function mountView(page: Page, options: MountOptions): Promise<Recorded> {
  await page.goto(PAGE);
  const port = new URL(page.url()).port;
  return page.evaluate(
    async ({ coreEntry, appsEntry, url, sandbox, options }) => {
      const { Client, StreamableHttpTransport } = await import(coreEntry);
      const { AppHost } = await import(appsEntry);
      const client = new Client(new StreamableHttpTransport(url));
      await client.connect();
      const container = document.createElement('div');
      container.id = 'view';
      document.body.append(container);
      const recorded: Recorded = { hooks: [], events: [], mounted: 'pending' };
      // Registered before the host's own listener, so a test sees each message before the host acts on it.
      const watchers: Array<(event: MessageEvent) => void> = [];
      window.addEventListener('message', (event) => {
        for (const watch of watchers) watch(event);
      });
      const note = (hook: string, value: unknown) =>
        recorded.hooks.push({ hook, value: JSON.parse(JSON.stringify(value)) });
      const host = new AppHost({
        client,
        toolCall: { name: options.tool, ...(options.arguments && { arguments: options.arguments }) },
        container,
        sandbox: { url: sandbox },
        hostContext: {
          theme: 'dark',
          displayMode: 'inline',
          availableDisplayModes: ['inline', 'fullscreen'],
          containerDimensions: { maxHeight: 320 },
          locale: 'fr-FR',
          timeZone: 'Europe/Paris',
          platform: 'web',
        },
        policy: {
          confirmToolCall: (call: { name: string; arguments: unknown }) => {
            note('confirmToolCall', { name: call.name, arguments: call.arguments });
            return true;
          },
          onMessage: (message: unknown) => note('onMessage', message),
          openLink: (link: URL) => {
            note('openLink', link.href);
            return options.consentToLinks ?? true;
          },
          requestDisplayMode: (mode: string) => {
            note('requestDisplayMode', mode);
            return mode;
          },
          updateModelContext: (context: unknown) => note('updateModelContext', context),
          onLog: (entry: unknown) => note('onLog', entry),
        },
        ...(options.limits && { limits: options.limits }),
        onEvent: (event: Record<string, unknown>) =>
          recorded.events.push(
            event.type === 'error' ? { type: 'error', code: (event.error as { code: string }).code } : event,
          ),
      });
      Object.assign(window, { host, client, recorded, watchers });
      if (options.streamed) {
        host.sendToolInputPartial(options.streamed.partial);
        host.sendToolInput(options.streamed.final);
        host.sendToolInput({ ignored: true });
      }
      await host.mount().then(
        () => {
          recorded.mounted = 'ready';
        },
        (error: { name: string; code: string }) => {
          recorded.mounted = `${error.name} ${error.code}`;
        },
      );
      return recorded;
    },
    {
      coreEntry: CORE_ENTRY,
      appsEntry: APPS_ENTRY,
      url: server.url,
      sandbox: `http://localhost:${port}${PROXY_PATH}?host=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
      options,
    },
  );
}

/** What the page recorded so far. */
const recorded = (page: Page): Promise<Recorded> =>
  page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded);

/** The sandbox proxy's frame and the view's frame inside it. */
function frames(page: Page): { proxy: Frame; view: Frame } {
  const proxy = page.frames().find((frame) => frame.url().includes(PROXY_PATH));
  const view = proxy?.childFrames()[0];
  if (!proxy || !view) throw new Error('the sandbox proxy or the view is not mounted');
  return { proxy, view };
}

/** The methods the proxy relayed from the host to the view, in order (`response` for an answer). */
const relayed = (page: Page): Promise<string[]> =>
  frames(page).proxy.evaluate(() => (window as unknown as { fromHost: string[] }).fromHost);

/** Clicks a counter-view button and waits for its outcome (`ok: …` or `error: …`). */
async function press(page: Page, id: string): Promise<string> {
  const view = page.frameLocator('#view iframe').frameLocator('iframe');
  await view.locator(`#${id}`).click();
  const outcome = view.locator(`#outcome [data-key="${id}"]`);
  await expect(outcome).toHaveText(/^(ok|error)/);
  return (await outcome.textContent()) ?? '';
}

const view = (page: Page) => page.frameLocator('#view iframe').frameLocator('iframe');

test('the lifecycle in the spec’s order: initialize answered with the host context, then partial input, the input once, the result; a theme change reaches the view', async ({
  page,
}) => {
  const outcome = await mountView(page, {
    tool: 'show-counter',
    streamed: { partial: { start: 1 }, final: { start: 5 } },
  });
  expect(outcome.mounted).toBe('ready');
  await expect(view(page).locator('#status')).toHaveText('connected');
  // Held until initialized, then sent in order; the second sendToolInput went nowhere.
  expect(await relayed(page)).toEqual([
    'response',
    'ui/notifications/tool-input-partial',
    'ui/notifications/tool-input',
  ]);
  await expect(view(page).locator('#tool-input')).toHaveText('{"start":5}');
  await expect(view(page).locator('#theme')).toHaveText('dark');
  await expect(view(page).locator('#locale')).toHaveText('fr-FR');

  await page.evaluate(async () => {
    const { host, client } = window as unknown as {
      host: { sendToolResult(result: unknown): void; sendToolInput(args: unknown): void };
      client: { callTool(name: string, args: unknown): Promise<unknown> };
    };
    host.sendToolResult(await client.callTool('show-counter', { start: 5 }));
    host.sendToolResult({ content: [{ type: 'text', text: 'a second result' }] });
    host.sendToolInput({ late: true });
  });
  await expect(view(page).locator('#tool-result')).toHaveText('Counter shown at 5');
  expect(await relayed(page)).toEqual([
    'response',
    'ui/notifications/tool-input-partial',
    'ui/notifications/tool-input',
    'ui/notifications/tool-result',
  ]);

  await page.evaluate(() =>
    (window as unknown as { host: { setHostContext(context: unknown): void } }).host.setHostContext({ theme: 'light' }),
  );
  await expect(view(page).locator('#theme')).toHaveText('light');
  expect((await relayed(page)).at(-1)).toBe('ui/notifications/host-context-changed');
  expect((await recorded(page)).events.filter((event) => event.type === 'state')).toEqual([
    { type: 'state', state: 'loading' },
    { type: 'state', state: 'ready' },
  ]);
});

test('a result with no input before it: the call’s own arguments go first, tool-input exactly once', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter' });
  await page.evaluate(() =>
    (window as unknown as { host: { sendToolResult(result: unknown): void } }).host.sendToolResult({
      content: [{ type: 'text', text: 'done' }],
    }),
  );
  await expect(view(page).locator('#tool-result')).toHaveText('done');
  expect(await relayed(page)).toEqual(['response', 'ui/notifications/tool-input', 'ui/notifications/tool-result']);
});

test('the view calls its app-only tool (after confirmToolCall), reads its server’s resource, logs and updates the model context', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter', arguments: { start: 5 } });
  await expect(view(page).locator('#count')).toHaveText('5');
  expect(await press(page, 'increment')).toBe('ok: 6');
  expect(await press(page, 'read')).toBe('ok: Hello from the apps test server');
  expect(await press(page, 'context')).toBe('ok: {}');
  await press(page, 'log');
  await expect.poll(async () => (await recorded(page)).hooks.map((entry) => entry.hook)).toContain('onLog');
  const { hooks } = await recorded(page);
  expect(hooks).toEqual([
    { hook: 'confirmToolCall', value: { name: 'increment', arguments: { value: 5 } } },
    {
      hook: 'updateModelContext',
      value: { content: [{ type: 'text', text: 'counter=6' }], structuredContent: { count: 6 } },
    },
    { hook: 'onLog', value: { level: 'info', logger: 'counter', data: 'count=6' } },
  ]);
});

test('ui/message reaches onMessage as an array of blocks, whether the view sent an array (ext-apps) or one block (the spec’s prose)', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter', arguments: { start: 2 } });
  expect(await press(page, 'message')).toBe('ok: {}');
  // One block, as the spec's prose shows it, posted by the view's own window through the proxy.
  const answer = await frames(page).view.evaluate(
    () =>
      new Promise((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.data?.id === 'single') resolve(event.data);
        });
        window.parent.postMessage(
          {
            jsonrpc: '2.0',
            id: 'single',
            method: 'ui/message',
            params: { role: 'user', content: { type: 'text', text: 'one block' } },
          },
          '*',
        );
      }),
  );
  expect(answer).toEqual({ jsonrpc: '2.0', id: 'single', result: {} });
  const { hooks } = await recorded(page);
  expect(hooks).toEqual([
    { hook: 'onMessage', value: { role: 'user', content: [{ type: 'text', text: 'The counter is at 2' }] } },
    { hook: 'onMessage', value: { role: 'user', content: [{ type: 'text', text: 'one block' }] } },
  ]);
});

test('ui/open-link goes through openLink: opened with consent, refused without; a javascript: link never reaches it', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter', consentToLinks: true });
  expect(await press(page, 'link')).toBe('ok: {}');
  const refused = await frames(page).view.evaluate(
    () =>
      new Promise((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.data?.id === 'js') resolve(event.data.error);
        });
        window.parent.postMessage(
          { jsonrpc: '2.0', id: 'js', method: 'ui/open-link', params: { url: 'javascript:alert(1)' } },
          '*',
        );
      }),
  );
  expect(refused).toEqual({ code: -32000, message: 'Invalid URL: only https links are opened' });
  expect((await recorded(page)).hooks).toEqual([{ hook: 'openLink', value: 'https://example.com/counter' }]);

  await mountView(page, { tool: 'show-counter', consentToLinks: false });
  expect(await press(page, 'link')).toMatch(/^error: .*Link opening denied/);
  expect((await recorded(page)).hooks).toEqual([{ hook: 'openLink', value: 'https://example.com/counter' }]);
});

test('display mode: the hook switches to a mode both sides list, the view hears it; size changes resize the iframe within maxHeight', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter' });
  expect(await press(page, 'fullscreen')).toBe('ok: fullscreen');
  await expect(view(page).locator('#display-mode')).toHaveText('fullscreen');
  expect((await recorded(page)).hooks).toEqual([{ hook: 'requestDisplayMode', value: 'fullscreen' }]);

  const frame = page.locator('#view iframe');
  const before = (await frame.boundingBox())?.height ?? 0;
  for (let round = 0; round < 2; round++) {
    await view(page).locator('#grow').click();
    await expect(view(page).locator('#outcome [data-key="grow"]')).toHaveText(/^height/);
  }
  // The view asks for more than 320 px; the container's maxHeight caps it.
  await expect.poll(async () => (await frame.boundingBox())?.height).toBe(320);
  expect(before).toBeLessThan(320);
  const sizes = (await recorded(page)).events.filter((event) => event.type === 'size');
  expect(sizes.at(-1)).toMatchObject({ type: 'size', height: 320 });
});

test('teardown sends ui/resource-teardown, waits for the view’s answer, then removes the iframe', async ({ page }) => {
  await mountView(page, { tool: 'show-counter', limits: { teardownTimeoutMs: 15_000 } });
  const outcome = await page.evaluate(async () => {
    const { host } = window as unknown as { host: { teardown(): Promise<void>; state: string } };
    const container = document.getElementById('view') as HTMLElement;
    const seen: Array<{ answer: unknown; frameStillThere: boolean }> = [];
    // mountView's listener went on before the host's: it sees each answer first, frame and all.
    const watch = (event: MessageEvent) => {
      if (event.data?.id !== undefined && event.data?.method === undefined) {
        seen.push({ answer: event.data, frameStillThere: container.querySelector('iframe') !== null });
      }
    };
    (window as unknown as { watchers: Array<(event: MessageEvent) => void> }).watchers.push(watch);
    await host.teardown();
    await host.teardown();
    return { seen, state: host.state, frames: container.querySelectorAll('iframe').length };
  });
  expect(outcome.seen).toEqual([{ answer: { jsonrpc: '2.0', id: 'host-1', result: {} }, frameStillThere: true }]);
  expect(outcome).toMatchObject({ state: 'closed', frames: 0 });
  expect((await recorded(page)).events.at(-1)).toEqual({ type: 'state', state: 'closed' });
});

test('refusals are typed: a sandbox on the page’s own origin, a tool with no ui:// view, a view that never initializes', async ({
  page,
}) => {
  const noView = await mountView(page, { tool: 'secret-model-only' });
  expect(noView.mounted).toBe('AppViewError no_ui_resource');
  expect(await page.locator('iframe').count()).toBe(0);

  const sameOrigin = await page.evaluate(async (appsEntry) => {
    const { AppHost } = await import(appsEntry);
    try {
      new AppHost({
        client: (window as unknown as { client: unknown }).client,
        toolCall: { name: 'show-counter' },
        container: document.body,
        sandbox: { url: '/e2e/apps-host/sandbox-proxy.html' },
      });
      return 'constructed';
    } catch (error) {
      return `${(error as Error).name} ${(error as { code: string }).code}`;
    }
  }, APPS_ENTRY);
  expect(sameOrigin).toBe('AppViewError same_origin');

  const silent = await mountView(page, { tool: 'hostile-silent', limits: { initializeTimeoutMs: 1_500 } });
  expect(silent.mounted).toBe('AppViewError initialize_timeout');
  expect(silent.events).toEqual([
    { type: 'state', state: 'loading' },
    { type: 'state', state: 'failed' },
    { type: 'error', code: 'initialize_timeout' },
  ]);
  expect(await page.locator('iframe').count()).toBe(0);
});

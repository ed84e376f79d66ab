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
  /** confirmToolCall never answers: each tools/call stays in flight. */
  holdToolCalls?: boolean;
  /** A method the test proxy keeps from the view. */
  drop?: string;
  limits?: Record<string, number>;
  /** Pins the client to this revision (a 2025 one: the legacy handshake era) instead of negotiating. */
  protocolVersion?: string;
}

/** What the page recorded: the app's hooks, the host's events, and how `mount()` ended. */
interface Recorded {
  hooks: Array<{ hook: string; value: unknown }>;
  events: Array<Record<string, unknown>>;
  mounted: string;
  /** Message listeners added to the page since the host was made, less those removed. */
  listeners: number;
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
      const client = new Client(
        new StreamableHttpTransport(url),
        options.protocolVersion ? { protocolVersion: options.protocolVersion } : {},
      );
      await client.connect();
      const container = document.createElement('div');
      container.id = 'view';
      document.body.append(container);
      const recorded: Recorded = { hooks: [], events: [], mounted: 'pending', listeners: 0 };
      // Registered before the host's own listener, so a test sees each message before the host acts on it.
      const watchers: Array<(event: MessageEvent) => void> = [];
      window.addEventListener('message', (event) => {
        for (const watch of watchers) watch(event);
      });
      const note = (hook: string, value: unknown) =>
        recorded.hooks.push({ hook, value: JSON.parse(JSON.stringify(value)) });
      // Counts the page's message listeners from here on: the host's must be gone once the view is.
      const add = window.addEventListener.bind(window);
      const remove = window.removeEventListener.bind(window);
      window.addEventListener = ((type: string, ...rest: [EventListener]) => {
        if (type === 'message') recorded.listeners++;
        add(type, ...rest);
      }) as typeof window.addEventListener;
      window.removeEventListener = ((type: string, ...rest: [EventListener]) => {
        if (type === 'message') recorded.listeners--;
        remove(type, ...rest);
      }) as typeof window.removeEventListener;
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
            return options.holdToolCalls ? new Promise<boolean>(() => {}) : true;
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
      sandbox: `http://localhost:${port}${PROXY_PATH}?host=${encodeURIComponent(`http://127.0.0.1:${port}`)}${options.drop ? `&drop=${options.drop}` : ''}`,
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

test('in the legacy era (the 2025-11-25 handshake) the same view gets its input and result, calls its app tool and reads its resource', async ({
  page,
}) => {
  const { mounted } = await mountView(page, {
    tool: 'show-counter',
    arguments: { start: 2 },
    protocolVersion: '2025-11-25',
  });
  expect(mounted).toBe('ready');
  expect(await page.evaluate(() => (window as unknown as { client: { era: string } }).client.era)).toBe('legacy');
  await expect(view(page).locator('#count')).toHaveText('2');
  expect(await press(page, 'increment')).toBe('ok: 3');
  expect(await press(page, 'read')).toBe('ok: Hello from the apps test server');
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

test('teardown sends ui/resource-teardown, waits for the view’s answer, then removes the iframe and its listener', async ({
  page,
}) => {
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
  expect((await recorded(page)).listeners).toBe(0);
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

/** Posts raw messages from the view's own window (through the proxy), then waits for the host to settle it. */
async function postFromView(page: Page, messages: unknown[]): Promise<Recorded> {
  await frames(page).view.evaluate((messages) => {
    for (const message of messages) window.parent.postMessage(message, '*');
  }, messages);
  await expect.poll(async () => (await recorded(page)).events.some((event) => event.type === 'error')).toBe(true);
  expect(await page.locator('iframe').count()).toBe(0);
  expect((await recorded(page)).listeners).toBe(0);
  // The page goes on: the client still works.
  const tools = await page.evaluate(async () => {
    const { client } = window as unknown as { client: { listTools(): Promise<unknown[]> } };
    return (await client.listTools()).length;
  });
  expect(tools).toBeGreaterThan(0);
  return recorded(page);
}

const errorCode = (outcome: Recorded) => outcome.events.find((event) => event.type === 'error')?.code;

test('a breach of each bound tears the view down with a typed error, and the page goes on', async ({ page }) => {
  await mountView(page, { tool: 'show-counter', limits: { maxMessageBytes: 10_000 } });
  const big = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(20_000) } };
  expect(errorCode(await postFromView(page, [big]))).toBe('message_too_large');
  expect(await page.evaluate(() => (window as unknown as { host: { state: string } }).host.state)).toBe('failed');

  await mountView(page, { tool: 'show-counter', limits: { maxMessagesPerSecond: 20 } });
  const pings = Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id: `p${id}`, method: 'ping' }));
  expect(errorCode(await postFromView(page, pings))).toBe('rate_limited');

  await mountView(page, { tool: 'show-counter', holdToolCalls: true, limits: { maxRequestsInFlight: 2 } });
  const calls = Array.from({ length: 3 }, (_, id) => ({
    jsonrpc: '2.0',
    id: `c${id}`,
    method: 'tools/call',
    params: { name: 'increment', arguments: { value: id } },
  }));
  expect(errorCode(await postFromView(page, calls))).toBe('too_many_requests');

  await mountView(page, { tool: 'show-counter' });
  expect(errorCode(await postFromView(page, [{ hello: 'world' }]))).toBe('invalid_message');
});

test('a view’s tools/call to a model-only tool is refused before any hook; an unknown method is -32601', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter' });
  const answers = await frames(page).view.evaluate(
    () =>
      new Promise((resolve) => {
        const seen: Record<string, unknown> = {};
        window.addEventListener('message', (event) => {
          if (event.data?.id === 'secret' || event.data?.id === 'other') seen[event.data.id] = event.data.error;
          if (Object.keys(seen).length === 2) resolve(seen);
        });
        window.parent.postMessage(
          { jsonrpc: '2.0', id: 'secret', method: 'tools/call', params: { name: 'secret-model-only', arguments: {} } },
          '*',
        );
        window.parent.postMessage({ jsonrpc: '2.0', id: 'other', method: 'sampling/createMessage', params: {} }, '*');
      }),
  );
  expect(answers).toEqual({
    secret: { code: -32000, message: 'Tool secret-model-only is not available to apps' },
    other: { code: -32601, message: 'Method not found: sampling/createMessage' },
  });
  expect((await recorded(page)).hooks).toEqual([]);
});

test('a Connection of @mcp/core/connections serves as the view’s server: its current client answers the view', async ({
  page,
}) => {
  await page.goto(PAGE);
  const port = new URL(page.url()).port;
  const outcome = await page.evaluate(
    async ({ appsEntry, connectionsEntry, url, sandbox }) => {
      const { AppHost } = await import(appsEntry);
      const { Connection } = await import(connectionsEntry);
      const connection = new Connection({ name: 'apps', url });
      await connection.connect();
      const container = document.createElement('div');
      container.id = 'view';
      document.body.append(container);
      const host = new AppHost({
        connection,
        toolCall: { name: 'show-counter', arguments: { start: 41 } },
        container,
        sandbox: { url: sandbox },
      });
      Object.assign(window, { host });
      await host.mount();
      return host.state;
    },
    {
      appsEntry: APPS_ENTRY,
      connectionsEntry: '/packages/core/dist/bundle/connections.js',
      url: server.url,
      sandbox: `http://localhost:${port}${PROXY_PATH}?host=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
    },
  );
  expect(outcome).toBe('ready');
  await expect(view(page).locator('#count')).toHaveText('41');
  expect(await press(page, 'increment')).toBe('ok: 42');
  // No onMessage in the policy: the safe default refuses it.
  expect(await press(page, 'message')).toMatch(/^error: .*Message sending denied/);
});

test('a view that never answers ui/resource-teardown is removed once teardownTimeoutMs has passed', async ({
  page,
}) => {
  await mountView(page, { tool: 'show-counter', drop: 'ui/resource-teardown', limits: { teardownTimeoutMs: 300 } });
  const outcome = await page.evaluate(async () => {
    const { host } = window as unknown as { host: { teardown(): Promise<void>; state: string } };
    const container = document.getElementById('view') as HTMLElement;
    let settled = false;
    const tearing = host.teardown().then(() => {
      settled = true;
    });
    // Still waiting on the view a moment later, frame in place.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const meanwhile = { settled, frames: container.querySelectorAll('iframe').length };
    await tearing;
    return { meanwhile, state: host.state, frames: container.querySelectorAll('iframe').length };
  });
  expect(outcome).toEqual({ meanwhile: { settled: false, frames: 1 }, state: 'closed', frames: 0 });
  expect((await recorded(page)).listeners).toBe(0);
});

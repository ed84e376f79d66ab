import type { FrameLocator, Page } from '@playwright/test';
import { type AppsServer, startAppsServer } from '../test-servers/apps/serve.mjs';
import { expect, test } from './fixtures.js';
import { hostSandboxProxy } from './support/sandbox-proxy.js';

// Hostile views (test-servers/apps/views/hostile/, each on the real ext-apps `App`
// class) through AppHost (@mcp/core/apps, built) and the shipped sandbox proxy page,
// configured for this page's origin and served on another. Each attempt is refused
// or the view torn down with a typed error; afterwards a well-behaved view mounts on
// the same page and works, so the chat goes on.

const PAGE = '/runtimes/browser/scenarios.html';
const CORE_ENTRY = '/packages/core/dist/bundle/index.js';
const APPS_ENTRY = '/packages/core/dist/bundle/apps.js';
const TOKEN = 'host-secret-token-7f3a';

interface Mounted {
  /** `ready`, or `<error name> <code>` when mount() failed. */
  readonly mounted: string;
  /** The codes of the `error` events the host reported. */
  readonly errors: string[];
  /** Their messages. */
  readonly messages: string[];
  /** The app's policy hooks the view reached, by name. */
  readonly hooks: string[];
}

interface HostilePage {
  mountApp(id: string, tool: string, args?: Record<string, unknown>, limits?: Record<string, number>): Promise<Mounted>;
  mounted: Record<string, { errors: string[]; messages: string[]; hooks: string[] }>;
}

let server: AppsServer;
test.beforeAll(async () => {
  server = await startAppsServer();
});
test.afterAll(async () => {
  await server?.close();
});

/**
 * Opens the host page, with a token in its storage and its DOM, and gives it
 * `mountApp(id, tool)`: one AppHost per call, in a container `#<id>`, over one
 * client, with a policy that consents to everything it is asked.
 */
async function openHost(page: Page, baseURL: string): Promise<void> {
  const origin = new URL(baseURL).origin;
  // Chromium would otherwise stop a view's loopback requests for its own reasons (local
  // network access), declared or not, and hide what the CSP alone does.
  await page.context().grantPermissions(['local-network-access']);
  const sandbox = await hostSandboxProxy(page.context(), origin, [origin]);
  await page.goto(PAGE);
  await page.evaluate(
    async ({ coreEntry, appsEntry, url, sandbox, token }) => {
      localStorage.setItem('mcp-token', token);
      document.body.insertAdjacentHTML('beforeend', `<p id="secret">${token}</p>`);
      const { Client, StreamableHttpTransport } = await import(coreEntry);
      const { AppHost } = await import(appsEntry);
      const client = new Client(new StreamableHttpTransport(url));
      await client.connect();
      const page = window as unknown as HostilePage;
      page.mounted = {};
      page.mountApp = async (id, tool, args, limits) => {
        const record = { errors: [] as string[], messages: [] as string[], hooks: [] as string[] };
        page.mounted[id] = record;
        const container = document.createElement('div');
        container.id = id;
        document.body.append(container);
        const consent = (hook: string) => () => {
          record.hooks.push(hook);
          return true;
        };
        const host = new AppHost({
          client,
          toolCall: { name: tool, ...(args && { arguments: args }) },
          container,
          sandbox: { url: sandbox },
          policy: {
            confirmToolCall: consent('confirmToolCall'),
            openLink: consent('openLink'),
            onMessage: consent('onMessage'),
            updateModelContext: consent('updateModelContext'),
          },
          ...(limits && { limits }),
          onEvent: (event: { type: string; error?: { code: string; message: string } }) => {
            if (event.type !== 'error') return;
            record.errors.push(event.error?.code ?? '?');
            record.messages.push(event.error?.message ?? '');
          },
        });
        const mounted = await host.mount().then(
          () => 'ready',
          (error: { name: string; code: string }) => `${error.name} ${error.code}`,
        );
        return { mounted, ...record };
      };
    },
    { coreEntry: CORE_ENTRY, appsEntry: APPS_ENTRY, url: server.url, sandbox, token: TOKEN },
  );
}

const mountApp = (
  page: Page,
  id: string,
  tool: string,
  args?: Record<string, unknown>,
  limits?: Record<string, number>,
) =>
  page.evaluate(([id, tool, args, limits]) => (window as unknown as HostilePage).mountApp(id, tool, args, limits), [
    id,
    tool,
    args,
    limits,
  ] as const);

/** The errors the host reported for the view in `#<id>` so far. */
const errorsOf = (page: Page, id: string) =>
  page.evaluate((id) => (window as unknown as HostilePage).mounted[id]?.errors ?? [], id);

/** The view inside the sandbox proxy inside `#<id>`. */
const viewIn = (page: Page, id: string): FrameLocator => page.frameLocator(`#${id} iframe`).frameLocator('iframe');

/** What the view reported under `key` (test-servers/apps/views/view-kit.js). */
const outcome = (page: Page, id: string, key: string) => viewIn(page, id).locator(`#outcome [data-key="${key}"]`);

/** The host page goes on: a well-behaved view mounts beside the hostile one and its app tool works. */
async function expectHostStillWorks(page: Page): Promise<void> {
  expect(new URL(page.url()).pathname).toBe(PAGE);
  await expect(page.locator('#secret')).toHaveText(TOKEN);
  const second = await mountApp(page, 'well-behaved', 'show-counter', { start: 1 });
  expect(second.mounted).toBe('ready');
  const view = viewIn(page, 'well-behaved');
  await expect(view.locator('#count')).toHaveText('1');
  await view.locator('#increment').click();
  await expect(view.locator('#outcome [data-key="increment"]')).toHaveText('ok: 2');
}

test.beforeEach(async ({ page, baseURL }) => {
  await openHost(page, baseURL ?? '');
});

test('top navigation is blocked: the page and the proxy frame stay where they are', async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-navigate-top')).mounted).toBe('ready');
  await expect(outcome(page, 'hostile', 'done')).toHaveText('yes');
  for (const key of ['top-location', 'top-href', 'parent-location']) {
    await expect(outcome(page, 'hostile', key)).toHaveText(/^blocked: SecurityError/);
  }
  expect(page.frames().map((frame) => frame.url())).not.toContain('https://example.com/escaped-by-navigation');
  await expectHostStillWorks(page);
});

test('popups are blocked: window.open gives null and no window opens', async ({ page, context }) => {
  expect((await mountApp(page, 'hostile', 'hostile-popup')).mounted).toBe('ready');
  await expect(outcome(page, 'hostile', 'done')).toHaveText('yes');
  await expect(outcome(page, 'hostile', 'window-open')).toHaveText('blocked: null');
  expect(context.pages()).toHaveLength(1);
  await expectHostStillWorks(page);
});

test("the view cannot read the page's DOM, cookies or the token in its storage", async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-read-parent')).mounted).toBe('ready');
  await expect(outcome(page, 'hostile', 'done')).toHaveText('yes');
  for (const key of ['parent-document', 'top-document', 'top-cookie', 'parent-local-storage', 'top-location-href']) {
    await expect(outcome(page, 'hostile', key)).toHaveText(/^blocked: SecurityError/);
  }
  // Its own origin is opaque: no storage, no cookies of anyone's.
  await expect(outcome(page, 'hostile', 'own-local-storage')).toHaveText(/^blocked: SecurityError/);
  await expect(viewIn(page, 'hostile').locator('#outcome')).not.toContainText(TOKEN);
  await expectHostStillWorks(page);
});

test('a 10,000-message flood is torn down as rate_limited', async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-flood', { count: 10_000 })).mounted).toBe('ready');
  await expect.poll(() => errorsOf(page, 'hostile')).toEqual(['rate_limited']);
  await expect(page.locator('#hostile iframe')).toHaveCount(0);
  await expectHostStillWorks(page);
});

test('a 20 MB message is torn down as message_too_large, before it reaches the page', async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-oversized', { bytes: 20_000_000 })).mounted).toBe('ready');
  await expect.poll(() => errorsOf(page, 'hostile')).toEqual(['message_too_large']);
  await expect(page.locator('#hostile iframe')).toHaveCount(0);
  const { hooks, messages } = await page.evaluate(
    () => (window as unknown as HostilePage).mounted.hostile ?? { hooks: [], messages: [] },
  );
  // The sandbox proxy measured it and took the view down; the host page never got the 20 MB.
  expect(messages).toEqual([expect.stringMatching(/^sandbox: the view sent a message of \d+ bytes/)]);
  expect(hooks).toEqual([]);
  await expectHostStillWorks(page);
});

test('garbage is torn down as invalid_message', async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-garbage')).mounted).toBe('ready');
  await expect.poll(() => errorsOf(page, 'hostile')).toEqual(['invalid_message']);
  await expect(page.locator('#hostile iframe')).toHaveCount(0);
  await expectHostStillWorks(page);
});

test('tools/call to a model-only tool is refused, the app tool beside it still answers', async ({ page }) => {
  expect((await mountApp(page, 'hostile', 'hostile-call-model-only')).mounted).toBe('ready');
  await expect(outcome(page, 'hostile', 'secret-model-only')).toHaveText(/^error: .*not available to apps/);
  await expect(outcome(page, 'hostile', 'increment')).toHaveText('ok: 2');
  await expect(viewIn(page, 'hostile').locator('body')).not.toContainText('the secret is 42');
  // Only the app tool reached the app's consent hook.
  const hooks = await page.evaluate(() => (window as unknown as HostilePage).mounted.hostile?.hooks);
  expect(hooks).toEqual(['confirmToolCall']);
  await expectHostStillWorks(page);
});

test('ui/open-link with javascript:, data:, file: or plain http: is refused without asking the app', async ({
  page,
}) => {
  expect((await mountApp(page, 'hostile', 'hostile-open-link')).mounted).toBe('ready');
  await expect(outcome(page, 'hostile', 'done')).toHaveText('yes');
  for (const key of [
    'javascript',
    'javascript-mixed-case',
    'javascript-leading-space',
    'javascript-tab',
    'data',
    'file',
    'vbscript',
    'http',
  ]) {
    await expect(outcome(page, 'hostile', key)).toHaveText(/^error: /);
  }
  expect(await page.evaluate(() => (window as unknown as HostilePage).mounted.hostile?.hooks)).toEqual([]);
  await expectHostStillWorks(page);
});

test('a view that never initializes is torn down as initialize_timeout', async ({ page }) => {
  const result = await mountApp(page, 'hostile', 'hostile-never-initialize', undefined, { initializeTimeoutMs: 1_500 });
  expect(result.mounted).toBe('AppViewError initialize_timeout');
  expect(result.errors).toEqual(['initialize_timeout']);
  await expect(page.locator('#hostile iframe')).toHaveCount(0);
  await expectHostStillWorks(page);
});

test('a view that says nothing at all is torn down as initialize_timeout', async ({ page }) => {
  const result = await mountApp(page, 'hostile', 'hostile-silent', undefined, { initializeTimeoutMs: 1_500 });
  expect(result.mounted).toBe('AppViewError initialize_timeout');
  await expect(page.locator('#hostile iframe')).toHaveCount(0);
  await expectHostStillWorks(page);
});

test('an undeclared request is blocked by the CSP and never reaches its server; the declared one does', async ({
  page,
}) => {
  const before = server.probes().length;
  expect((await mountApp(page, 'probe', 'show-csp')).mounted).toBe('ready');
  await expect(outcome(page, 'probe', 'done')).toHaveText('yes');
  await expect(outcome(page, 'probe', 'connect-declared')).toHaveText(/^allowed/);
  await expect(outcome(page, 'probe', 'image-declared')).toHaveText('allowed');
  await expect(outcome(page, 'probe', 'connect-undeclared')).toHaveText('blocked');
  await expect(outcome(page, 'probe', 'image-undeclared')).toHaveText('blocked');
  const hits = server.probes().slice(before);
  expect(hits.map((hit) => hit.from).sort()).toEqual(['declared', 'declared']);
  expect(hits.every((hit) => hit.origin === server.origin)).toBe(true);
  await expectHostStillWorks(page);
});

test('with no ui.csp the view reaches no server at all', async ({ page }) => {
  const before = server.probes().length;
  expect((await mountApp(page, 'probe', 'show-no-csp')).mounted).toBe('ready');
  await expect(outcome(page, 'probe', 'done')).toHaveText('yes');
  for (const key of ['connect-declared', 'image-declared', 'connect-undeclared', 'image-undeclared']) {
    await expect(outcome(page, 'probe', key)).toHaveText('blocked');
  }
  expect(server.probes().slice(before)).toEqual([]);
});

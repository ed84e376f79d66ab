import type { Page } from '@playwright/test';
import { type HttpServers, startHttpServers } from '../test-servers/http/serve.mjs';
import { expect, test } from './fixtures.js';
import { type AppServer, REACT_VERSIONS, type ReactVersion, startAppServer } from './react/app-server.js';
import type { Setup } from './react/setup.js';

let app: AppServer;
let http: HttpServers;
test.beforeAll(async () => {
  [app, http] = await Promise.all([startAppServer(), startHttpServers()]);
});
test.afterAll(async () => {
  await Promise.all([app?.close(), http?.close()]);
});

/** A fault scenario with no rules: the reference server (sessions, SSE) with a log of what it received. */
function server() {
  const { id, path } = http.faultHandler.createScenario({ inner: 'stateful', rules: [] });
  const stats = () => {
    const seen = http.faultHandler.stats(id);
    if (!seen) throw new Error(`fault scenario ${id} is gone`);
    return seen;
  };
  return { url: `${http.faults}${path}`, stats, methods: () => stats().methods };
}

/** The app on `react`, rendering `setup`, once it runs that React. */
async function open(page: Page, react: ReactVersion, setup: Setup) {
  await page.goto(app.url(react, setup));
  await expect(page.getByRole('main')).toHaveAttribute('data-react', new RegExp(`^${react}\\.`));
}

for (const react of REACT_VERSIONS) {
  test.describe(`React ${react}`, () => {
    test('a tool list that changes (add-tool) re-renders in useMcp and useMcpServers without a reload', async ({ page }) => {
      const notes = server();
      await open(page, react, { providers: [{ id: 'app', servers: [{ name: 'notes', url: notes.url }] }] });
      const panel = page.getByTestId('server-notes');
      await expect(panel.getByTestId('status')).toHaveText('ready');
      await expect(panel.getByTestId('server-info')).toHaveText('mcp-reference-server (legacy)');
      await expect(panel.getByTestId('tools').locator('li')).toHaveCount(11);
    });
  });
}

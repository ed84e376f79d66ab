import { expect, test } from '@playwright/test';

/** What the page puts on `window` once the built bundle has loaded. */
interface PageGlobals {
  core: Record<string, unknown>;
  program: {
    memoryRoundTrip(core: unknown): Promise<unknown>;
    clientRoundTrip(core: unknown): Promise<unknown>;
  };
}

test.beforeEach(async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/e2e/core-bundle.html');
  await page
    .waitForFunction(() => 'ready' in window, undefined, { timeout: 10_000 })
    .catch(() => {
      throw new Error(`page did not load the bundle (is packages/core/dist built?): ${errors.join('; ')}`);
    });
});

test('the built core bundle loads in Chromium and exports the public API', async ({ page }) => {
  const names = await page.evaluate(() => Object.keys((window as unknown as PageGlobals).core).sort());
  expect(names).toEqual(expect.arrayContaining(['Client', 'MemoryTransport', 'McpError']));
});

test('a MemoryTransport pair carries a message in the browser', async ({ page }) => {
  const received = await page.evaluate(() => {
    const w = window as unknown as PageGlobals;
    return w.program.memoryRoundTrip(w.core);
  });
  expect(received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
});

test('a Client connects, lists tools and calls one against an in-page server', async ({ page }) => {
  const summary = await page.evaluate(() => {
    const w = window as unknown as PageGlobals;
    return w.program.clientRoundTrip(w.core);
  });
  expect(summary).toEqual({
    protocolVersion: '2025-11-25',
    serverName: 'scripted-server',
    tools: ['echo'],
    text: 'echo: hello',
    isError: false,
    unexpected: [],
  });
});

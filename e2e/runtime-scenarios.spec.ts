import { HTTP_TEST_SERVERS } from '../playwright.config.js';
import type { ScenarioOutcome } from '../runtimes/run-scenario.js';
import { type ServerUrls, scenarios } from '../runtimes/scenarios.js';
import { expect, test } from './fixtures.js';

/** What runtimes/browser/scenarios.html puts on `window` once the bundle and the scenarios loaded. */
interface PageGlobals {
  runScenario(name: string, urls: ServerUrls): Promise<ScenarioOutcome>;
}

test.beforeEach(async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/runtimes/browser/scenarios.html');
  await page
    .waitForFunction(() => 'ready' in window, undefined, { timeout: 10_000 })
    .catch(() => {
      throw new Error(
        `page did not load the bundle and scenarios (is packages/core/dist built?): ${errors.join('; ')}`,
      );
    });
});

for (const scenario of scenarios) {
  test(`Chromium: ${scenario.title}`, async ({ page }) => {
    const outcome = await page.evaluate(([name, urls]) => (window as unknown as PageGlobals).runScenario(name, urls), [
      scenario.name,
      HTTP_TEST_SERVERS,
    ] as const);
    expect(outcome).toEqual({ ok: true });
  });
}

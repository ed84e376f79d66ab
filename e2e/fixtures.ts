/**
 * The `test` and `expect` every spec in e2e/ imports. Playwright only reports an
 * exception a page did not catch, or a promise rejection it left unhandled (both
 * arrive as `pageerror`); here either one fails the test that was running.
 * The Node side needs nothing: Playwright's worker already fails the test on
 * an unhandled rejection or an uncaught exception there.
 */
import { test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

export const test = base.extend({
  // Every page a test opens comes from its context, popups and `context.newPage()` included.
  context: async ({ context }, use) => {
    const errors: string[] = [];
    const watch = (page: Page) => {
      page.on('pageerror', (error) => errors.push(`${page.url()}\n${error.stack ?? String(error)}`));
    };
    for (const page of context.pages()) watch(page);
    context.on('page', watch);
    await use(context);
    if (errors.length > 0) {
      throw new Error(`${errors.length} uncaught error(s) in the page:\n\n${errors.join('\n\n')}`);
    }
  },
});

import { HTTP_TEST_SERVERS } from '../playwright.config.js';
import { expect, test } from './fixtures.js';

// The page is on the static server's origin and the MCP server on another, so
// every request is cross-origin: CORS decides, as it does for a real web app.

interface Outcome {
  readonly ok: boolean;
  readonly name?: string;
  readonly message?: string;
  readonly sessionId?: string;
}

async function connect(page: import('@playwright/test').Page, url: string): Promise<Outcome> {
  await page.goto('/runtimes/browser/scenarios.html');
  return page.evaluate(async (target) => {
    const core = await import('/packages/core/dist/core.bundle.js' as string);
    const client = new core.Client(new core.StreamableHttpTransport(target));
    try {
      await client.connect();
      return { ok: true, sessionId: client.session?.sessionId };
    } catch (error) {
      const { name, message } = error as Error;
      return { ok: false, name, message };
    } finally {
      await client.close();
    }
  }, url);
}

test('a server without CORS headers fails with a CorsError telling its author what to allow and expose', async ({
  page,
}) => {
  const outcome = await connect(page, `${HTTP_TEST_SERVERS.modes}/no-cors/stateful`);
  expect(outcome.ok).toBe(false);
  expect(outcome.name).toBe('CorsError');
  expect(outcome.message).toContain('Access-Control-Allow-Headers');
  expect(outcome.message).toContain('mcp-session-id');
  expect(outcome.message).toContain('Access-Control-Expose-Headers');
});

test('a server with the MCP CORS headers works across origins and its session id is visible', async ({ page }) => {
  const outcome = await connect(page, `${HTTP_TEST_SERVERS.modes}/stateful`);
  expect(outcome).toMatchObject({ ok: true, sessionId: expect.any(String) });
});

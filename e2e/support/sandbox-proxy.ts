import { readFileSync } from 'node:fs';
import type { BrowserContext } from '@playwright/test';

/** Where the build puts the sandbox proxy page, under the static server's root. */
export const SANDBOX_PROXY_PATH = '/packages/core/dist/apps/sandbox-proxy.html';

const CONFIG = /<meta name="mcp-host-origins" content="[^"]*"\s*\/?>/;

/**
 * Serves the built sandbox proxy page on `http://localhost:<port>`, another
 * origin than the tests' pages on `127.0.0.1`, with `hostOrigins` written into
 * its `<meta name="mcp-host-origins">` as a deployer would. Returns its URL.
 */
export async function hostSandboxProxy(
  context: BrowserContext,
  baseURL: string,
  hostOrigins: readonly string[],
): Promise<string> {
  const url = new URL(SANDBOX_PROXY_PATH, baseURL);
  url.hostname = 'localhost';
  const built = readFileSync(new URL(`../..${SANDBOX_PROXY_PATH}`, import.meta.url), 'utf8');
  if (!CONFIG.test(built)) throw new Error('the built sandbox-proxy.html has no <meta name="mcp-host-origins">');
  const html = built.replace(CONFIG, () => `<meta name="mcp-host-origins" content="${hostOrigins.join(' ')}" />`);
  await context.route(url.href, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  return url.href;
}

import { defineConfig } from '@playwright/test';

const port = 4173;

/**
 * The HTTP test servers (test-servers/http/serve.mjs) on fixed ports, each a
 * different origin from the page's, for e2e/runtime-scenarios.spec.ts.
 */
export const HTTP_TEST_SERVERS = { modes: 'http://127.0.0.1:8788', faults: 'http://127.0.0.1:8789' } as const;

/** examples/browser-chat, built by Vite and served by `vite preview` on an origin of its own. */
export const BROWSER_CHAT_URL = 'http://127.0.0.1:4174';

/**
 * examples/react-chat, built by Vite and served by `vite preview` on an origin of its own; its MCP Apps
 * sandbox proxy is served on the next port (4176), another origin.
 */
export const REACT_CHAT_URL = 'http://127.0.0.1:4175';

/**
 * Chromium tests of the built output. Uses Debian's Chromium (/usr/bin/chromium, or
 * CHROMIUM_PATH); Playwright downloads nothing. One worker: the machine has 2 cores.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: '.tmp/playwright-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 20_000,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: `node scripts/static-server.mjs ${port}`,
      url: `http://127.0.0.1:${port}/runtimes/browser/scenarios.html`,
      reuseExistingServer: false,
      timeout: 15_000,
    },
    {
      command: 'node test-servers/http/serve.mjs --port 8788 --faults-port 8789 --other-port 8790',
      url: `${HTTP_TEST_SERVERS.modes}/health`,
      reuseExistingServer: false,
      timeout: 15_000,
    },
    {
      // Built here, so the test always runs the app as it is now (about 5 s).
      command:
        'pnpm --dir examples/browser-chat build && pnpm --dir examples/browser-chat preview --port 4174 --strictPort',
      url: BROWSER_CHAT_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command:
        'pnpm --dir examples/react-chat build && pnpm --dir examples/react-chat preview --port 4175 --strictPort',
      url: REACT_CHAT_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});

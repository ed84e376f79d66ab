import { type HttpServers, startHttpServers } from '../test-servers/http/serve.mjs';
import { expect, test } from './fixtures.js';
import { type AppServer, REACT_VERSIONS, startAppServer } from './react/app-server.js';
import { callFrom, openApp } from './react/drive-app.js';

// A server that drops and comes back, as useMcp shows it (built @mcp/react, Chromium, React 18 and 19):
// the HTTP test servers are stopped and started again on the same ports while the page stays open.

let app: AppServer;
let http: HttpServers | undefined;
test.beforeAll(async () => {
  app = await startAppServer();
});
test.afterAll(async () => {
  await Promise.all([app?.close(), stop()]);
});

/** Stops the HTTP test servers, if they run: the server's side of a drop. */
async function stop() {
  const running = http;
  http = undefined;
  await running?.close();
}

/** Starts the HTTP test servers (on `port` for the fault server, when given) with one rule-less scenario. */
async function start(port = 0) {
  http = await startHttpServers({ faultsPort: port });
  // At once, before any request can arrive: the new server's first scenario has the old one's id, so its URL.
  const { id, path } = http.faultHandler.createScenario({ inner: 'stateful', rules: [] });
  const servers = http;
  return { url: `${servers.faults}${path}`, methods: () => servers.faultHandler.stats(id)?.methods ?? {} };
}

for (const react of REACT_VERSIONS) {
  test(`React ${react}: a server that drops shows reconnecting with its attempt, then ready on its own`, async ({
    page,
  }) => {
    const first = await start();
    await openApp(page, app, react, {
      providers: [{ id: 'app', servers: [{ name: 'notes', url: first.url }], healthCheckMs: 300 }],
    });
    const panel = page.getByTestId('server-notes');
    await expect(panel.getByTestId('status')).toHaveText('ready');

    const port = Number(new URL(first.url).port);
    await stop();
    // The app's health check (a ping every 300 ms) notices: nothing else was being sent.
    await expect(panel.getByTestId('status')).toHaveText('reconnecting');
    // Attempts fail while the server is away (connection refused), each shown with its number.
    await expect(panel.getByTestId('attempt')).toHaveText(/^[2-9]$/);
    await expect(page.getByTestId('servers')).toHaveText('notes: reconnecting');

    const back = await start(port);
    await expect(panel.getByTestId('status')).toHaveText('ready');
    await expect(panel.getByTestId('tools').locator('li')).toHaveCount(11);
    await expect(panel.getByTestId('seen')).toHaveText(
      /^idle → connecting → ready( → reconnecting → connecting){2,} → ready$/,
    );
    // The server that came back had forgotten the session: one new handshake, then the calls go on.
    await expect((await callFrom(panel, 'echo', { text: 'back' })).locator('output')).toHaveText('back');
    expect(back.methods()).toMatchObject({ initialize: 1, 'tools/call': 1 });
    await stop();
  });
}

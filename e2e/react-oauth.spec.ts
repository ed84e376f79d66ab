import { type AuthScenario, type AuthServers, startAuthServers } from '../test-servers/auth/serve.mjs';
import { expect, test } from './fixtures.js';
import { type AppServer, REACT_VERSIONS, startAppServer } from './react/app-server.js';
import { callFrom, openApp } from './react/drive-app.js';

// A server that needs OAuth, as useMcp shows it (built @mcp/react, Chromium, React 18 and 19), against the
// OAuth test servers: the Sign-in button calls the hook's authorize() from its click; a blocked popup
// leaves a plain link, whose callback tab hands its URL back through useMcpServers' completeAuthorization.

let app: AppServer;
let auth: AuthServers;
test.beforeAll(async () => {
  [app, auth] = await Promise.all([startAppServer(), startAuthServers()]);
});
test.afterAll(async () => {
  await Promise.all([app?.close(), auth?.close()]);
});

/** The requests the OAuth servers received on the way in: one authorization, one code redeemed, for `mcp`. */
function expectOneSignIn(scenario: AuthScenario) {
  const { requests, registrations } = scenario.stats();
  const { mcp } = scenario.info();
  const authorizations = requests.filter((entry) => entry.path === '/oauth/authorize');
  expect(authorizations.map((entry) => entry.query.resource)).toEqual([mcp]);
  const redeemed = requests.filter(
    (entry) => entry.path === '/oauth/token' && entry.form?.grant_type === 'authorization_code',
  );
  expect(redeemed.map((entry) => entry.status)).toEqual([200]);
  expect(registrations.map((entry) => entry.metadata.redirect_uris)).toEqual([[app.callback]]);
  // The MCP server answered calls carrying the token it issued.
  const answered = requests.filter((entry) => entry.server === 'mcp' && entry.rpcMethod === 'tools/call');
  expect(answered.map((entry) => [entry.status, entry.headers.authorization?.startsWith('Bearer ')])).toEqual([
    [200, true],
  ]);
}

for (const react of REACT_VERSIONS) {
  test.describe(`React ${react}`, () => {
    test('a server that needs OAuth: connecting, authorizing with a Sign-in button, a popup, connecting again, ready', async ({
      page,
    }) => {
      const scenario = await auth.createScenario();
      await openApp(page, app, react, {
        providers: [{ id: 'app', servers: [{ name: 'secure', url: scenario.info().mcp, oauth: true }] }],
      });
      const panel = page.getByTestId('server-secure');
      const signIn = panel.getByRole('button', { name: 'Sign in' });
      await expect(signIn).toBeEnabled();
      await expect(panel.getByTestId('status')).toHaveText('authorizing');
      // Nothing opened before the click: the connection waits for the user.
      expect(scenario.stats().requests.filter((entry) => entry.path === '/oauth/authorize')).toEqual([]);

      const popup = page.waitForEvent('popup');
      await signIn.click();
      await (await popup).waitForEvent('close');
      await expect(panel.getByTestId('status')).toHaveText('ready');
      await expect(panel.getByTestId('seen')).toHaveText('idle → connecting → authorizing → connecting → ready');
      await expect(panel.getByTestId('tools').locator('li')).toHaveCount(11);
      await expect((await callFrom(panel, 'echo', { text: 'signed in' })).locator('output')).toHaveText('signed in');
      expectOneSignIn(scenario);
    });

    test('a blocked popup leaves the link; the link’s callback tab hands its URL back and the server is ready', async ({
      page,
      context,
    }) => {
      const scenario = await auth.createScenario();
      await openApp(page, app, react, {
        blockPopups: true,
        providers: [{ id: 'app', servers: [{ name: 'secure', url: scenario.info().mcp, oauth: true }] }],
      });
      const panel = page.getByTestId('server-secure');
      await panel.getByRole('button', { name: 'Sign in' }).click();
      const link = panel.getByTestId('sign-in-link');
      await expect(link).toHaveAttribute('href', new RegExp(`^${scenario.info().as}/oauth/authorize\\?`));
      await expect(panel.getByTestId('status')).toHaveText('authorizing');

      // The user follows the link in a tab of its own: the callback page there has no opener.
      const tab = await context.newPage();
      await tab.goto((await link.getAttribute('href')) ?? '');
      await tab.waitForURL((url) => url.href.startsWith(app.callback) && url.searchParams.has('code'));
      await expect(tab.locator('body')).toContainText('started in another window');
      await expect(panel.getByTestId('status')).toHaveText('ready');
      await expect(panel.getByTestId('seen')).toHaveText('idle → connecting → authorizing → connecting → ready');
      await expect((await callFrom(panel, 'echo', { text: 'by link' })).locator('output')).toHaveText('by link');
      expectOneSignIn(scenario);
    });
  });
}

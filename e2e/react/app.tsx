/**
 * The React test app of e2e/react-*.spec.ts: what the page URL's `setup` asks for (setup.ts), each
 * `<McpProvider>` making its own set from configs, each server shown by a `useMcp` panel and the whole
 * set by `useMcpServers`, everything the hooks return rendered to the DOM for the specs to read.
 * Bundled once per React major by app-server.ts.
 */
import { LocalStorageStore, listenForAuthorizationResponses, popupAuthorize, WebFlowLock } from '@mcp/core/browser';
import type { ServersOptions } from '@mcp/core/connections';
import { McpProvider, useMcp, useMcpServers } from '@mcp/react';
import { StrictMode, useEffect, version } from 'react';
import { createRoot } from 'react-dom/client';
import { Views } from './app-views.js';
import { ServerPanel } from './server-panel.js';
import type { ProviderSetup, Setup } from './setup.js';

const setup = JSON.parse(new URL(location.href).searchParams.get('setup') ?? '') as Setup;
if (setup.blockPopups) window.open = () => null;

/**
 * Every set's connection options: sign-in through a popup to this origin's callback page, one flow per
 * server across tabs, and reconnects quick enough for a test to watch a few attempts.
 */
const options = (provider?: ProviderSetup): Omit<ServersOptions, 'store'> => ({
  connection: {
    ...(provider?.healthCheckMs !== undefined && { healthCheck: { intervalMs: provider.healthCheckMs } }),
    oauth: {
      authorize: popupAuthorize(),
      redirectUri: new URL('/callback.html', location.href).href,
      clientMetadata: { client_name: '@mcp/react e2e' },
    },
    authorization: { lock: new WebFlowLock() },
    reconnect: { baseDelayMs: 400, maxDelayMs: 800, maxAttempts: 100 },
  },
});

/** One provider's part of the page: its set's servers in a list, each server's panel, and the plain-link hand-off. */
function ProviderContent({ setup }: { setup: ProviderSetup }) {
  const { servers, tools, loading, completeAuthorization } = useMcpServers();
  useEffect(() => listenForAuthorizationResponses(completeAuthorization), [completeAuthorization]);
  return (
    <>
      <ul data-testid="servers" data-loading={loading}>
        {servers.map((server) => (
          <li key={server.name}>{`${server.name}: ${server.state.status}`}</li>
        ))}
      </ul>
      <ul data-testid="set-tools">
        {tools.map((tool) => (
          <li key={tool.name}>{tool.name}</li>
        ))}
      </ul>
      {setup.servers.map(({ name }) => (
        <NamedServer key={name} name={name} />
      ))}
    </>
  );
}

function NamedServer({ name }: { name: string }) {
  return <ServerPanel mcp={useMcp(name)} />;
}

/** A server the hook connects by itself, outside any provider. */
function OwnServer({ name, url }: { name: string; url: string }) {
  return <ServerPanel mcp={useMcp({ name, url }, options().connection)} />;
}

function App() {
  return (
    <main data-react={version}>
      {setup.providers.map((provider) => (
        <section key={provider.id} data-testid={provider.id}>
          <McpProvider
            configs={provider.servers}
            options={() => options(provider)}
            {...(provider.store === 'local' && { store: () => new LocalStorageStore({ prefix: `${provider.id}:` }) })}
          >
            <ProviderContent setup={provider} />
          </McpProvider>
        </section>
      ))}
      {setup.own?.map((server) => (
        <section key={server.name} data-testid={`own-${server.name}`}>
          <OwnServer {...server} />
        </section>
      ))}
      {setup.views && <Views setup={setup.views} />}
    </main>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  setup.strict ? (
    <StrictMode>
      <App />
    </StrictMode>
  ) : (
    <App />
  ),
);

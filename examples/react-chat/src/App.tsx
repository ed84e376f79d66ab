import { LocalStorageStore } from '@mcp/core/browser';
import { McpProvider } from '@mcp/react';
import { useState } from 'react';
import { Chat } from './Chat.js';
import type { ModelSettings } from './model.js';
import { ServerPanel } from './ServerPanel.js';
import { serverSetOptions, useSignInHandOff } from './server-set.js';
import { ToolList } from './ToolList.js';

/** The set's store: made on the client only, by the provider. Servers, sessions and tokens survive a reload. */
const store = () => new LocalStorageStore();

/**
 * The page. The provider makes the set of MCP servers in the browser (its
 * store and options are functions for that), restores the stored servers and
 * resumes their sessions with no handshake; every component below reads it
 * through the hooks.
 */
export function App() {
  return (
    <McpProvider store={store} options={serverSetOptions}>
      <Page />
    </McpProvider>
  );
}

/** The servers, the model and the tools on the side; the conversation beside them. */
function Page() {
  useSignInHandOff();
  const [settings, setSettings] = useState<ModelSettings>({ baseURL: '', apiKey: '', modelId: '' });
  const field = (key: keyof ModelSettings) => ({
    name: key,
    value: settings[key],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setSettings({ ...settings, [key]: event.target.value }),
  });
  return (
    <>
      <aside>
        <h1>MCP React chat</h1>
        <ServerPanel />
        <fieldset>
          <legend>Model (OpenAI-compatible)</legend>
          <label>
            Base URL <input type="url" required placeholder="https://api.openai.com/v1" {...field('baseURL')} />
          </label>
          <label>
            API key <input type="password" autoComplete="off" {...field('apiKey')} />
          </label>
          <label>
            Model <input required placeholder="gpt-4.1-mini" {...field('modelId')} />
          </label>
        </fieldset>
        <ToolList />
      </aside>
      <Chat settings={settings} />
    </>
  );
}

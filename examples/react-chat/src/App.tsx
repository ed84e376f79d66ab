import type { Servers } from '@mcp/core/connections';
import { useState } from 'react';
import { Chat } from './Chat.js';
import type { ModelSettings } from './model.js';
import { ServerPanel } from './ServerPanel.js';
import { ToolList } from './ToolList.js';

/**
 * The page: the servers, the model and the tools on the side; the
 * conversation beside them. `servers` is the set the provider above holds: the
 * chat hands it to `mcpToolSet`, the rest reads it through the hooks.
 */
export function App({ servers }: { servers: Servers }) {
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
      <Chat servers={servers} settings={settings} />
    </>
  );
}

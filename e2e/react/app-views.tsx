/**
 * The MCP Apps part of the React test app: `<McpAppView>`s of one server's tools (setup.ts's
 * `views`), each with buttons that change what the component is given, as a chat would: finish the
 * streamed input, run the tool and pass its result, cancel, switch the theme, unmount and mount again.
 * What the views send the chat and the errors they end with are rendered for the spec to read.
 */
import type { ToolResult } from '@mcp/core';
import { appsCapability } from '@mcp/core/protocol';
import { McpAppView, McpProvider, useMcp } from '@mcp/react';
import { useState } from 'react';
import type { ViewSetup, ViewsSetup } from './setup.js';

/** Answers from a view to the host's requests (`host-<n>` ids), seen by the page, with the iframes there then. */
const hostAnswers: Array<{ id: string; result?: unknown; iframes: number }> = [];
Object.assign(window, { hostAnswers });
window.addEventListener('message', (event) => {
  const data = event.data as { id?: unknown; method?: unknown; result?: unknown } | null;
  if (typeof data?.id === 'string' && data.id.startsWith('host-') && data.method === undefined) {
    hostAnswers.push({ id: data.id, result: data.result, iframes: document.querySelectorAll('iframe').length });
  }
});

/** The set's connection options: the client declares MCP Apps, so the server offers its UI tools. */
const options = () => ({ connection: { client: { capabilities: { extensions: appsCapability() } } } });

export function Views({ setup }: { setup: ViewsSetup }) {
  return (
    <McpProvider configs={[setup.server]} options={options}>
      {setup.views.map((view) => (
        <ViewUnderTest key={view.id} view={view} server={setup.server.name} sandbox={setup.sandbox} />
      ))}
    </McpProvider>
  );
}

function ViewUnderTest({ view, server, sandbox }: { view: ViewSetup; server: string; sandbox: string }) {
  const mcp = useMcp(server);
  const [shown, setShown] = useState(true);
  const [streaming, setStreaming] = useState(view.partial !== undefined);
  const [result, setResult] = useState<ToolResult>();
  const [cancelled, setCancelled] = useState(false);
  const [theme, setTheme] = useState<'light' | 'dark'>('light');
  const [messages, setMessages] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const args = streaming ? view.partial : view.arguments;
  const run = async () => setResult(await mcp.callTool(view.tool, view.arguments ?? {}));
  return (
    <section data-testid={`view-${view.id}`}>
      <button type="button" onClick={() => setStreaming(false)}>
        Finish input
      </button>
      <button type="button" onClick={() => void run()}>
        Run
      </button>
      <button type="button" onClick={() => setCancelled(true)}>
        Cancel
      </button>
      <button type="button" onClick={() => setTheme((now) => (now === 'light' ? 'dark' : 'light'))}>
        Theme
      </button>
      <button type="button" onClick={() => setShown((now) => !now)}>
        {shown ? 'Unmount' : 'Mount'}
      </button>
      {shown && (
        <McpAppView
          server={server}
          toolCall={{
            name: view.tool,
            id: view.id,
            streaming,
            cancelled,
            ...(args && { arguments: args }),
            ...(result && { result }),
          }}
          sandboxUrl={sandbox}
          hostContext={{ theme }}
          {...(view.limits && { limits: view.limits })}
          policy={{ confirmToolCall: () => true }}
          onMessage={({ content }) =>
            setMessages((now) => [...now, content.map((block) => (block.type === 'text' ? block.text : '')).join('')])
          }
          onError={(error) => setErrors((now) => [...now, `${error.name} ${error.code}`])}
        />
      )}
      <ul data-testid="messages">
        {messages.map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </ul>
      <ul data-testid="errors">
        {errors.map((error, index) => (
          <li key={index}>{error}</li>
        ))}
      </ul>
    </section>
  );
}

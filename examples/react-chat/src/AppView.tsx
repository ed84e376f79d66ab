import type { AppMessage } from '@mcp/core/apps';
import { McpAppView } from '@mcp/react';
import { sandboxUrl } from './sandbox.js';
import type { ToolEntry } from './transcript.js';

/** The sandbox proxy's URL, read once on the client (this module loads there only). */
const SANDBOX = sandboxUrl();

/**
 * A tool call's MCP Apps view, inline in the transcript. What the view sends
 * the chat becomes the user's next message; a link it asks to open is opened
 * only once the user says yes (the host takes https only). Tool calls and
 * resource reads reach the view's own server alone, within what its tools'
 * visibility allows.
 */
export function AppView({
  entry,
  app,
  onMessage,
}: {
  entry: ToolEntry;
  app: NonNullable<ToolEntry['app']>;
  onMessage: (message: AppMessage) => void;
}) {
  return (
    <McpAppView
      className="app-view"
      server={app.server}
      tool={app.tool}
      toolCall={{
        name: app.tool.name,
        id: entry.id,
        ...(entry.input !== null &&
          typeof entry.input === 'object' && { arguments: entry.input as Record<string, unknown> }),
        ...(entry.result && { result: entry.result }),
        cancelled: entry.state === 'error' ? (entry.output ?? true) : false,
      }}
      sandboxUrl={SANDBOX}
      hostInfo={{ name: 'mcp-react-chat', version: '0.1.0' }}
      hostContext={{ theme: 'light', containerDimensions: { maxHeight: 480 } }}
      onMessage={onMessage}
      policy={{ openLink }}
    />
  );
}

function openLink(url: URL): boolean {
  if (!window.confirm(`An app in the chat wants to open ${url.href}\n\nOpen it in a new tab?`)) return false;
  window.open(url.href, '_blank', 'noopener,noreferrer');
  return true;
}

/**
 * One server as `useMcp` returns it, in the DOM: its state (the attempt, the error, the sign-in button
 * or link), who it is, its tools, a form that calls a tool through the hook, and its pending requests.
 * Everything the specs read carries a `data-testid`, inside a `region` named for the server.
 */
import type { ConnectionState } from '@mcp/core/connections';
import type { UseMcpResult } from '@mcp/react';
import { useEffect, useState } from 'react';
import { PendingRequests } from './pending-requests.js';
import { ToolCalls } from './tool-calls.js';

export function ServerPanel({ mcp }: { mcp: UseMcpResult }) {
  const { state, status } = mcp;
  // Every status the component rendered, in order: what the user saw, not what the connection went through.
  const [seen, setSeen] = useState<readonly string[]>([]);
  useEffect(() => setSeen((before) => (before.at(-1) === status ? before : [...before, status])), [status]);
  return (
    <section aria-label={`Server ${mcp.name}`} data-testid={`server-${mcp.name}`}>
      <p data-testid="status">{status}</p>
      <p data-testid="seen">{seen.join(' → ')}</p>
      <StateDetails state={state} authorize={mcp.authorize} />
      <p data-testid="server-info">{mcp.serverInfo ? `${mcp.serverInfo.name} (${mcp.era})` : ''}</p>
      <ul data-testid="tools">
        {mcp.tools.map((tool) => (
          <li key={tool.name}>{tool.name}</li>
        ))}
      </ul>
      <ToolCalls callTool={mcp.callTool} />
      <PendingRequests pending={mcp.pending} />
    </section>
  );
}

/** What each state adds to its name: the attempt, the error, or the way to sign in. */
function StateDetails({ state, authorize }: { state: ConnectionState; authorize: () => Promise<void> }) {
  switch (state.status) {
    case 'connecting':
      return <p data-testid="attempt">{state.attempt}</p>;
    case 'reconnecting':
      return (
        <>
          <p data-testid="attempt">{state.attempt}</p>
          <p data-testid="error">{state.error.message}</p>
        </>
      );
    case 'failed':
      return <p data-testid="error">{`${state.error.name}: ${state.error.message}`}</p>;
    case 'authorizing':
      if (state.elsewhere) return <p data-testid="elsewhere">Signing in in another tab…</p>;
      if (state.popupBlocked && state.authorizationUrl) {
        // The popup was blocked: the user follows the plain link instead, in a tab of its own.
        return (
          <a data-testid="sign-in-link" href={state.authorizationUrl.href} target="_blank" rel="noreferrer">
            Sign in
          </a>
        );
      }
      // `authorize()` straight from the click, with nothing awaited before it, or the popup is blocked.
      return (
        <button type="button" onClick={() => void authorize()} disabled={!state.authorizationUrl}>
          Sign in
        </button>
      );
    default:
      return null;
  }
}

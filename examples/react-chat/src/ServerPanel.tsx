import { assertBrowsable } from '@mcp/core/browser';
import type { ConnectionSnapshot } from '@mcp/core/connections';
import { useMcp, useMcpServers } from '@mcp/react';
import { type FormEvent, useState } from 'react';
import { notice, useNotices } from './notices.js';
import { checkTypedUrl } from './server-set.js';
import { describeError } from './text.js';

/**
 * The user's servers, each with where its connection is and what the user
 * can do about it (sign in, follow the link when the popup was blocked, retry,
 * remove), the notices of what the set worked around (a damaged stored
 * config, say), and the form that adds a server.
 */
export function ServerPanel() {
  const { servers, loading } = useMcpServers();
  const notices = useNotices();
  return (
    <section aria-labelledby="servers-heading">
      <h2 id="servers-heading">MCP servers</h2>
      {loading && <p className="state">Restoring your servers…</p>}
      <ul className="servers">
        {servers.map((server) => (
          <ServerEntry key={server.name} name={server.name} />
        ))}
      </ul>
      {notices.length > 0 && (
        <ul className="notices">
          {notices.map((notice, i) => (
            // Notices are only ever appended: the index is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
            <li key={i} role="alert">
              {notice}
            </li>
          ))}
        </ul>
      )}
      <AddServerForm />
    </section>
  );
}

/** One server: re-renders only when its own snapshot changed, not at another server's news. */
function ServerEntry({ name }: { name: string }) {
  const server = useMcp(name);
  const { remove } = useMcpServers();
  const { state } = server;
  return (
    <li className="server" aria-label={name} data-status={state.status}>
      <b>{name}</b>
      <StateDetails snapshot={server} />
      <div className="actions">
        {state.status === 'authorizing' && !state.elsewhere && (
          // authorize() opens the popup inside this click's call stack: browsers block it anywhere else.
          <button type="button" onClick={() => void server.authorize()}>
            Sign in
          </button>
        )}
        {(state.status === 'reconnecting' || state.status === 'failed') && (
          <button type="button" onClick={() => void server.reconnect()}>
            {state.status === 'failed' ? 'Retry' : 'Retry now'}
          </button>
        )}
        <button type="button" onClick={() => void remove(name).catch((error: unknown) => notice(describeError(error)))}>
          Remove
        </button>
      </div>
    </li>
  );
}

/** What the state means for the user, in words. */
function StateDetails({ snapshot }: { snapshot: ConnectionSnapshot }) {
  const { state } = snapshot;
  switch (state.status) {
    case 'idle':
      return <p className="state">Not connected.</p>;
    case 'connecting':
      return <p className="state">{state.attempt === 0 ? 'Connecting…' : `Connecting (attempt ${state.attempt})…`}</p>;
    case 'authorizing':
      if (state.elsewhere) return <p className="state">Signing in in another tab…</p>;
      return (
        <p className="state">
          Needs you to sign in.
          {state.popupBlocked && state.authorizationUrl && <SignInLink url={state.authorizationUrl} />}
        </p>
      );
    case 'ready': {
      const { serverInfo, protocolVersion, era, tools } = snapshot;
      const who = serverInfo ? `${serverInfo.name} ${serverInfo.version}` : 'the server';
      return (
        <p className="state">
          Ready: {who} ({protocolVersion ?? era ?? '?'}), {tools.length} tools.
        </p>
      );
    }
    case 'reconnecting':
      return (
        <p className="state">
          Reconnecting: attempt {state.attempt} at {new Date(state.nextAttemptAt).toLocaleTimeString()}.
          <small>{describeError(state.error)}</small>
        </p>
      );
    case 'failed':
      return (
        <p className="state">
          Failed.<small role="alert">{describeError(state.error)}</small>
        </p>
      );
    case 'closed':
      return <p className="state">Closed.</p>;
  }
}

/**
 * The sign-in page as a plain link, for when the popup was blocked. The URL
 * comes from the server's authorization server, so it is checked as the popup
 * would check it: https (http only on this machine), never `javascript:`.
 */
function SignInLink({ url }: { url: URL }) {
  try {
    assertBrowsable(url);
  } catch (error) {
    return <small role="alert">{describeError(error)}</small>;
  }
  return (
    <span>
      {' The popup was blocked: '}
      <a href={url.href} target="_blank" rel="noopener noreferrer">
        open the sign-in page
      </a>
      .
    </span>
  );
}

/** Name and URL, checked (typed errors shown as text), then added; the button is off while adding. */
function AddServerForm() {
  const { add } = useMcpServers();
  const [error, setError] = useState('');
  const [adding, setAdding] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (adding) return; // a double click adds the server once
    const form = event.currentTarget;
    const field = (key: string) => (form.elements.namedItem(key) as HTMLInputElement).value.trim();
    const [name, url] = [field('name'), field('url')];
    setAdding(true);
    setError('');
    Promise.resolve()
      .then(() => {
        checkTypedUrl(url);
        return add({ name, url, oauth: true });
      })
      .then(
        () => form.reset(),
        (failure: unknown) => setError(describeError(failure)),
      )
      .finally(() => setAdding(false));
  };

  return (
    <form aria-label="Add a server" onSubmit={submit}>
      <label>
        Name <input name="name" required placeholder="github" autoComplete="off" />
      </label>
      <label>
        URL <input name="url" type="url" required placeholder="https://example.com/mcp" />
      </label>
      <button type="submit" disabled={adding}>
        Add
      </button>
      <p className="error" role="alert">
        {error}
      </p>
    </form>
  );
}

import { assertBrowsable } from '@mcp/core/browser';
import type { Connection, ConnectionSnapshot, Servers } from '@mcp/core/connections';
import { describeError, el } from './dom.js';

/**
 * The list of servers, one entry each, showing where its connection is
 * (`snapshot.state`) and what the user can do about it: sign in, follow the
 * link when the popup was blocked, retry, remove. An entry is made again only
 * when its server's snapshot changed, so a button is not replaced under the
 * user's pointer by another server's news.
 */
export class ServerPanel {
  readonly #list: HTMLUListElement;
  readonly #servers: Servers;
  readonly #onRemove: (connection: Connection) => void;
  /** Each entry's element and the snapshot it shows. */
  readonly #shown = new Map<string, { snapshot: ConnectionSnapshot; element: HTMLLIElement }>();

  constructor(list: HTMLUListElement, servers: Servers, onRemove: (connection: Connection) => void) {
    this.#list = list;
    this.#servers = servers;
    this.#onRemove = onRemove;
  }

  /** Shows the servers as they are in `snapshots`, in order. */
  render(snapshots: readonly ConnectionSnapshot[]): void {
    const entries = snapshots.map((snapshot) => {
      const shown = this.#shown.get(snapshot.name);
      if (shown?.snapshot === snapshot) return shown.element;
      const element = this.#entry(snapshot);
      this.#shown.set(snapshot.name, { snapshot, element });
      return element;
    });
    const names = new Set(snapshots.map((snapshot) => snapshot.name));
    for (const name of this.#shown.keys()) if (!names.has(name)) this.#shown.delete(name);
    this.#list.replaceChildren(...entries);
  }

  #entry(snapshot: ConnectionSnapshot): HTMLLIElement {
    const { name, state } = snapshot;
    const connection = () => this.#servers.get(name);
    const button = (label: string, action: (connection: Connection) => unknown) => {
      const element = el('button', { type: 'button' }, label);
      element.addEventListener('click', () => {
        const found = connection();
        if (found) void action(found);
      });
      return element;
    };
    const details: (Node | string)[] = [];
    const actions: HTMLElement[] = [];
    switch (state.status) {
      case 'idle':
        details.push('Not connected.');
        break;
      case 'connecting':
        details.push(state.attempt === 0 ? 'Connecting…' : `Connecting (attempt ${state.attempt})…`);
        break;
      case 'authorizing':
        if (state.elsewhere) {
          details.push('Signing in in another tab…');
        } else {
          details.push('Needs you to sign in.');
          // authorize() opens the popup inside this click's call stack: browsers block it anywhere else.
          actions.push(button('Sign in', (found) => found.authorize()));
          if (state.popupBlocked && state.authorizationUrl) details.push(signInLink(state.authorizationUrl));
        }
        break;
      case 'ready': {
        const { serverInfo, protocolVersion } = snapshot;
        const who = serverInfo ? `${serverInfo.name} ${serverInfo.version}` : 'the server';
        details.push(`Ready: ${who} (${protocolVersion ?? snapshot.era ?? '?'}), ${snapshot.tools.length} tools.`);
        break;
      }
      case 'reconnecting': {
        const at = new Date(state.nextAttemptAt).toLocaleTimeString();
        details.push(`Reconnecting: attempt ${state.attempt} at ${at}.`, el('small', {}, describeError(state.error)));
        actions.push(button('Retry now', (found) => found.reconnect()));
        break;
      }
      case 'failed':
        details.push('Failed.', el('small', { role: 'alert' }, describeError(state.error)));
        actions.push(button('Retry', (found) => found.reconnect()));
        break;
      case 'closed':
        details.push('Closed.');
        break;
    }
    actions.push(button('Remove', (found) => this.#onRemove(found)));
    return el(
      'li',
      { class: 'server', 'aria-label': name, 'data-status': state.status },
      el('b', {}, name),
      el('p', { class: 'state' }, ...details),
      el('div', { class: 'actions' }, ...actions),
    );
  }
}

/**
 * The sign-in page as a plain link, for when the popup was blocked. The URL
 * comes from the server's authorization server, so it is checked as the popup
 * would check it: https (http only on this machine), never `javascript:`.
 */
function signInLink(url: URL): Node {
  try {
    assertBrowsable(url);
  } catch (error) {
    return el('small', { role: 'alert' }, describeError(error));
  }
  return el(
    'span',
    {},
    'The popup was blocked: ',
    el('a', { href: url.href, target: '_blank', rel: 'noopener' }, 'open the sign-in page'),
    '.',
  );
}

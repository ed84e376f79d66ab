import type { EraKind } from '../client/options.js';
import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { Implementation } from '../protocol/implementation.js';
import type { Prompt } from '../protocol/prompts.js';
import type { Resource } from '../protocol/resources.js';
import type { Tool } from '../protocol/tools.js';
import type { PendingRequest } from './pending-request.js';

/**
 * Where a connection is. `status` names the state; the other fields are what a
 * UI shows for it. A new object each time the state changes.
 */
export type ConnectionState =
  /** Made, not yet asked to connect. */
  | { readonly status: 'idle' }
  /** Opening the session (or resuming a stored one): `attempt` 0 is the first connection, n the n-th reconnect. */
  | { readonly status: 'connecting'; readonly attempt: number }
  /**
   * The server wants the user to sign in. Call `authorize()` from a user gesture;
   * `authorizationUrl` is for a plain link when a popup was blocked (`popupBlocked`),
   * and `elsewhere` is true while another tab or instance runs the flow for this server.
   */
  | {
      readonly status: 'authorizing';
      readonly authorizationUrl?: URL;
      readonly popupBlocked?: boolean;
      readonly elsewhere?: boolean;
    }
  /** Connected: calls go through. */
  | { readonly status: 'ready' }
  /** Lost the connection; `attempt` (from 1) is due at `nextAttemptAt` (epoch ms). */
  | { readonly status: 'reconnecting'; readonly attempt: number; readonly nextAttemptAt: number; readonly error: Error }
  /** Gave up: the reconnect budget is spent, or the error cannot be retried. `reconnect()` tries again. */
  | { readonly status: 'failed'; readonly error: Error }
  /** Closed by the app; nothing reconnects. */
  | { readonly status: 'closed' };

/** One of the state names. */
export type ConnectionStatus = ConnectionState['status'];

/**
 * An immutable picture of one connection, for a UI: the same object until
 * something in it changes, so `useSyncExternalStore`, a Svelte store or a Vue
 * ref re-render only on change.
 */
export interface ConnectionSnapshot {
  /** The server's name in its set (or the connection's own name). */
  readonly name: string;
  readonly state: ConnectionState;
  /** Who the server said it is, once connected. */
  readonly serverInfo?: Implementation;
  readonly capabilities?: ServerCapabilities;
  readonly instructions?: string;
  readonly era?: EraKind;
  readonly protocolVersion?: string;
  /** Every tool, kept current through `tools/list_changed`; empty until ready. */
  readonly tools: readonly Tool[];
  /** Prompts, when the connection was asked to keep them (`lists.prompts`). */
  readonly prompts?: readonly Prompt[];
  /** Resources, when the connection was asked to keep them (`lists.resources`). */
  readonly resources?: readonly Resource[];
  /** Elicitation and sampling requests waiting for the user, oldest first. */
  readonly pending: readonly PendingRequest[];
  /**
   * The last listing that failed while the connection stayed up (a refusal, a
   * bad page): that list keeps its previous items. Cleared when it lists again.
   */
  readonly listError?: { readonly list: 'tools' | 'prompts' | 'resources'; readonly error: Error };
}

/** What happened to a connection, for an app's log. */
export type ConnectionEvent =
  | { readonly type: 'state'; readonly from: ConnectionState; readonly to: ConnectionState }
  /** A list was read again (`error` unset), or reading it failed and it kept its items (`error`). */
  | { readonly type: 'lists'; readonly list: 'tools' | 'prompts' | 'resources'; readonly error?: Error }
  | { readonly type: 'pending'; readonly request: PendingRequest; readonly outcome: 'added' | 'answered' | 'withdrawn' }
  | { readonly type: 'health'; readonly ok: boolean; readonly error?: Error }
  /** Something the connection worked around: a store that failed, a stored session it could not use. */
  | { readonly type: 'warning'; readonly error: Error };

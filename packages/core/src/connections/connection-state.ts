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
  | {
      /** The state's name. */
      readonly status: 'idle';
    }
  /** Opening the session (or resuming a stored one). */
  | {
      /** The state's name. */
      readonly status: 'connecting';
      /** 0 for the first connection, n for the n-th reconnect attempt. */
      readonly attempt: number;
    }
  /** The server wants the user to sign in: call `authorize()` from a user gesture. */
  | {
      /** The state's name. */
      readonly status: 'authorizing';
      /** Where the user signs in: for a button that calls `authorize()`, or a plain link once `popupBlocked`. */
      readonly authorizationUrl?: URL;
      /** The browser blocked the popup `authorize()` opened: show `authorizationUrl` as a link. */
      readonly popupBlocked?: boolean;
      /** Another tab or instance runs the sign-in for this server; this one waits for its tokens. */
      readonly elsewhere?: boolean;
    }
  /** Connected: calls go through. */
  | {
      /** The state's name. */
      readonly status: 'ready';
    }
  /** Lost the connection, waiting for the next attempt. */
  | {
      /** The state's name. */
      readonly status: 'reconnecting';
      /** The attempt that comes next, from 1. */
      readonly attempt: number;
      /** When it starts, in epoch ms. */
      readonly nextAttemptAt: number;
      /** Why the connection was lost, or why the last attempt failed. */
      readonly error: Error;
    }
  /** Gave up: the reconnect budget is spent, or the error cannot be retried. `reconnect()` tries again. */
  | {
      /** The state's name. */
      readonly status: 'failed';
      /** Why: the error itself, or a `ConnectionError` (`reconnect_budget`) with the last failure as its cause. */
      readonly error: Error;
    }
  /** Closed by the app; nothing reconnects. */
  | {
      /** The state's name. */
      readonly status: 'closed';
    };

/** One of the state names. */
export type ConnectionStatus = ConnectionState['status'];

/** A list a connection keeps current. */
export type ListName = 'tools' | 'prompts' | 'resources';

/**
 * An immutable picture of one connection, for a UI: the same object until
 * something in it changes, so `useSyncExternalStore`, a Svelte store or a Vue
 * ref re-render only on change.
 */
export interface ConnectionSnapshot {
  /** The server's name in its set (or the connection's own name). */
  readonly name: string;
  /** Where the connection is. */
  readonly state: ConnectionState;
  /** Who the server said it is, once connected. */
  readonly serverInfo?: Implementation;
  /** What the server declared it supports, once connected. */
  readonly capabilities?: ServerCapabilities;
  /** The server's guidance on how to use it, when it gave some. */
  readonly instructions?: string;
  /** The protocol era the server speaks, once connected. */
  readonly era?: EraKind;
  /** The negotiated protocol revision, once connected. */
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
  readonly listError?: ListError;
}

/** A listing that failed while the connection stayed up. */
export interface ListError {
  /** The list that could not be read. */
  readonly list: ListName;
  /** Why. */
  readonly error: Error;
}

/** What happened to a connection, for an app's log. */
export type ConnectionEvent =
  /** The state changed. */
  | {
      /** The event's kind. */
      readonly type: 'state';
      /** The state before. */
      readonly from: ConnectionState;
      /** The state now. */
      readonly to: ConnectionState;
    }
  /** A list was read again, or reading it failed and it kept its items. */
  | {
      /** The event's kind. */
      readonly type: 'lists';
      /** Which list. */
      readonly list: ListName;
      /** Set when reading it failed. */
      readonly error?: Error;
    }
  /** A server request came to wait for the user, or left. */
  | {
      /** The event's kind. */
      readonly type: 'pending';
      /** The request. */
      readonly request: PendingRequest;
      /** It came, the UI answered it, or the server or the call gave it up. */
      readonly outcome: 'added' | 'answered' | 'withdrawn';
    }
  /** A health check ran. */
  | {
      /** The event's kind. */
      readonly type: 'health';
      /** The server answered the ping. */
      readonly ok: boolean;
      /** Why not, when it did not. */
      readonly error?: Error;
    }
  /** Something the connection worked around: a store that failed, a stored session it could not use. */
  | {
      /** The event's kind. */
      readonly type: 'warning';
      /** What went wrong. */
      readonly error: Error;
    };

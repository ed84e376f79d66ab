import type { Client } from '../client/client.js';
import type { Connection } from '../connections/connection.js';
import type { Tool } from '../protocol/tool-definition.js';
import type { CallToolResult, ToolResult } from '../protocol/tools.js';
import type { AppLimits } from './app-limits.js';
import type { AppPolicy } from './app-policy.js';
import type { AppViewError } from './app-view-error.js';
import type { AppHostContext } from './host-context.js';

/** The tool call a view shows. */
export interface AppToolCall {
  /** The called tool's name, as its server lists it. */
  readonly name: string;
  /** The complete arguments; `sendToolInput` may supply them later instead. */
  readonly arguments?: Record<string, unknown>;
  /** The result, when the call has finished already; `sendToolResult` may supply it later instead. */
  readonly result?: CallToolResult | ToolResult;
  /** The JSON-RPC id of the `tools/call`, passed on in `hostContext.toolInfo`. */
  readonly id?: string | number;
}

/** Where an `AppHost` is in its life. */
export type AppHostState = 'idle' | 'loading' | 'ready' | 'closed' | 'failed';

/** What an `AppHost` reports as it goes: its state, the error that ended it, the view's size. */
export type AppHostEvent =
  | {
      /** The host's state changed. */
      readonly type: 'state';
      /** The state the host is in now. */
      readonly state: AppHostState;
    }
  | {
      /** The view failed or broke a rule, and was ended. */
      readonly type: 'error';
      /** Why the view was ended. */
      readonly error: AppViewError;
    }
  | {
      /** The view's iframe was resized to follow the size the view reported. */
      readonly type: 'size';
      /** The iframe's new width in px, capped by `maxWidth` and `limits`; undefined when the host fixes the width or the view gave none. */
      readonly width: number | undefined;
      /** The iframe's new height in px, capped by `maxHeight` and `limits`; undefined when the host fixes the height or the view gave none. */
      readonly height: number | undefined;
    }
  /** The view asked to be closed (`ui/notifications/request-teardown`); the app decides whether to call `teardown()`. */
  | {
      /** The view asked to be closed. */
      readonly type: 'teardown-requested';
    };

/** The server the view belongs to: a `Client`, or a `Connection` (whose current client is used for each call). */
export type AppServer =
  | {
      /** The client of the view's server; every call the view makes goes through it. */
      readonly client: Client;
      /** Not with `client`. */
      readonly connection?: never;
    }
  | {
      /** The connection to the view's server; each call uses its client of the moment. */
      readonly connection: Connection;
      /** Not with `connection`. */
      readonly client?: never;
    };

/** What an `AppHost` needs: the server, the tool call, where to mount, and the sandbox proxy page. */
export type AppHostOptions = AppServer & {
  /** The tool call whose view this host shows. */
  readonly toolCall: AppToolCall;
  /** The tool's definition, when the app has it at hand; otherwise it is looked up with `tools/list`. */
  readonly tool?: Tool;
  /** The element the sandbox iframe is appended to. */
  readonly container: HTMLElement;
  /**
   * The sandbox proxy page (`sandbox-proxy.html` of this package, hosted by the
   * app) on an origin other than the page's: same-origin is refused.
   */
  readonly sandbox: {
    /** The sandbox proxy page's URL. */
    readonly url: string | URL;
  };
  /** What the view is told about where it is shown. */
  readonly hostContext?: AppHostContext;
  /** Who the host is, in the `ui/initialize` answer (default `{ name: '@mcp/core', version: '0' }`). */
  readonly hostInfo?: {
    /** The host application's name. */
    readonly name: string;
    /** The host application's version. */
    readonly version: string;
  };
  /** What the view may ask; each member has a safe default. */
  readonly policy?: AppPolicy;
  /** Bounds on what the view sends and how long it may take. */
  readonly limits?: AppLimits;
  /** Called with each state change, the error that ended the view, and each size change. */
  readonly onEvent?: (event: AppHostEvent) => void;
};

/**
 * What the React test app renders, given by the spec in the page URL's `setup` parameter (JSON), so a
 * reload renders the same app again.
 */
export interface Setup {
  /** Render everything inside `<StrictMode>`. */
  readonly strict?: boolean;
  /** `window.open` returns null, as when the browser blocks a popup. */
  readonly blockPopups?: boolean;
  /** Each an `<McpProvider>` with its own server set, side by side. */
  readonly providers: readonly ProviderSetup[];
  /** Servers each connected by a `useMcp(config)` of its own, outside any provider, in `own-<name>`. */
  readonly own?: readonly { readonly name: string; readonly url: string }[];
  /** MCP Apps views (`<McpAppView>`) of one server, in a provider of their own (app-views.tsx). */
  readonly views?: ViewsSetup;
}

/** The views of e2e/react-app-view.spec.ts: each an `<McpAppView>` of a tool of `server`, in `view-<id>`. */
export interface ViewsSetup {
  /** The sandbox proxy page, on another origin than the app's. */
  readonly sandbox: string;
  readonly server: { readonly name: string; readonly url: string };
  readonly views: readonly ViewSetup[];
}

export interface ViewSetup {
  readonly id: string;
  readonly tool: string;
  /** Given to the view as partial input (streaming) until the page's "Finish input" button. */
  readonly partial?: Record<string, unknown>;
  /** The complete arguments. */
  readonly arguments?: Record<string, unknown>;
  readonly limits?: Record<string, number>;
}

/** One `<McpProvider>`, rendered in a `<section data-testid={id}>`. */
export interface ProviderSetup {
  readonly id: string;
  /** The servers the provider's set holds, each shown by a `useMcp(name)` panel. */
  readonly servers: readonly { readonly name: string; readonly url: string; readonly oauth?: boolean }[];
  /** Keep the set (configs, sessions, tokens) in localStorage under `<id>:`; else in memory. */
  readonly store?: 'local';
  /** Ping the servers every this many ms while ready (`healthCheck.intervalMs`), so a silent drop is noticed. */
  readonly healthCheckMs?: number;
}

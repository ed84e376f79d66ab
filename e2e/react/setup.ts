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

import { type ServerConfig, Servers, type ServersOptions, type Store } from '@mcp/core/connections';
import { createElement, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Held } from './held.js';
import { givenSet, type ServerSet, ServerSetContext } from './server-set.js';

/** What the set a provider makes is made of; a function is called on the client only, when the set is made. */
export type OnTheClient<T> = T | (() => T);

/** Props of an {@link McpProvider} that holds the app's own set. */
export interface McpProviderWithServers {
  /**
   * The app's set (`await Servers.open({ store })`, or `new Servers()`): the
   * provider hands it to its hooks and never closes it. Make it on the client
   * (a module that only the browser loads, or an effect): its store may read
   * `localStorage`.
   */
  readonly servers: Servers;
  /** The part of the app whose hooks use the set. */
  readonly children?: ReactNode;
}

/** Props of an {@link McpProvider} that makes a set of its own. */
export interface McpProviderWithConfigs {
  /** Not given: the provider makes its set from `configs`, `store` and `options`. */
  readonly servers?: undefined;
  /**
   * Servers the set should hold. Each one whose name is not in the set (after
   * the stored configs are restored) is added when the provider mounts and
   * whenever this changes; a server is never removed for leaving this list
   * (`useMcpServers().remove()` does that). A config the set refuses (not
   * usable, one server too many) goes to `options.onError`.
   */
  readonly configs?: readonly ServerConfig[];
  /**
   * Where the set keeps its configs, sessions and tokens, so a reload
   * resumes them with no handshake. Give a function (`() => new
   * LocalStorageStore()`) for a store that touches browser APIs: it runs on
   * the client only.
   */
  readonly store?: OnTheClient<Store>;
  /**
   * The set's other options (`connection`, `onError`, `maxServers`, `tools`…),
   * or a function that makes them on the client (for `oauth.redirectUri` from
   * `location`). Read once, when the set is made.
   */
  readonly options?: OnTheClient<Omit<ServersOptions, 'store'>>;
  /** The part of the app whose hooks use the set. */
  readonly children?: ReactNode;
}

/** Props of {@link McpProvider}: the app's own set, or what the provider makes one from. */
export type McpProviderProps = McpProviderWithServers | McpProviderWithConfigs;

/**
 * Gives `useMcp(name)` and `useMcpServers()` below it a set of MCP servers.
 *
 * With `servers`, the app's own set: the provider never closes it. Without,
 * the provider makes a set from `configs`, `store` and `options` on the client
 * only, in its first effect (server rendering makes nothing and connects
 * nothing), restores what the store holds, adds the configs it lacks, and
 * closes the set (keeping the sessions in the store) when it unmounts for good.
 * StrictMode's extra unmount and mount in development keep the same set: one
 * connection per server, never two.
 *
 * ```tsx
 * <McpProvider configs={[{ name: 'notes', url: 'https://example.com/mcp' }]} store={() => new LocalStorageStore()}>
 *   <Chat />
 * </McpProvider>
 * ```
 */
export function McpProvider(props: McpProviderProps): ReactNode {
  const { servers, children } = props;
  const latest = useRef(props);
  const [owned] = useState(() => new Held(() => makeSet(latest.current), closeSet, watchSet));
  const set = useMemo<ServerSet>(() => (servers ? givenSet(servers) : owned), [servers, owned]);

  // Before the effect that makes the set: it reads the props of this render.
  useEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    if (servers) return;
    owned.acquire();
    return () => owned.release();
  }, [servers, owned]);

  const configs = servers ? undefined : props.configs;
  useEffect(() => {
    if (!configs || configs.length === 0) return;
    let live = true;
    void owned.whenMade().then((made) => {
      if (live) void addMissing(made, configs);
    });
    return () => {
      live = false;
    };
  }, [configs, owned]);

  return createElement(ServerSetContext.Provider, { value: set }, children);
}

/** The `onError` of each set a provider made, for the configs it refuses. */
const reporters = new WeakMap<Servers, (error: Error) => void>();

function makeSet(props: McpProviderProps): Servers {
  const { store, options } = props as McpProviderWithConfigs;
  const resolved = resolve(options) ?? {};
  const madeStore = resolve(store);
  const made = new Servers({ ...resolved, ...(madeStore && { store: madeStore }) });
  if (resolved.onError) reporters.set(made, resolved.onError);
  // A store that fails while restoring is told to onError by the set itself; this catches the rest (bad options).
  made.restore().catch((error: unknown) => resolved.onError?.(asError(error)));
  return made;
}

function closeSet(servers: Servers): void {
  void servers.close();
}

function watchSet(servers: Servers, changed: () => void): () => void {
  return servers.subscribe(changed);
}

function resolve<T extends object>(value: OnTheClient<T> | undefined): T | undefined {
  return typeof value === 'function' ? (value as () => T)() : value;
}

/** Adds each config whose name the set lacks, after the stored ones are restored; refusals go to `onError`. */
async function addMissing(servers: Servers, configs: readonly ServerConfig[]): Promise<void> {
  const onError = reporters.get(servers);
  await servers.restore().catch(() => {});
  for (const config of configs) {
    if (servers.getSnapshot().closed) return;
    if (servers.get(config.name)) continue;
    try {
      await servers.add(config);
    } catch (error) {
      onError?.(asError(error));
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

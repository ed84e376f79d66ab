import { foldSourceName, type ServerConfig, Servers, type ServersOptions, type Store } from '@mcp/core/connections';
import { createElement, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { configKey } from './config-key.js';
import { Held } from './held.js';
import { type OnTheClient, onTheClient } from './on-the-client.js';
import { givenSet, type ServerSet, ServerSetContext } from './server-set.js';

/** Props of an {@link McpProvider} that holds the app's own set. */
export interface McpProviderWithServers {
  /**
   * The app's set (`await Servers.open({ store })`, or `new Servers()`): the
   * provider hands it to its hooks and never closes it. Make it on the client
   * (a module that only the browser loads, or an effect): its store may read
   * `localStorage`.
   */
  readonly servers: Servers;
  /** Only without `servers`: the app's set has its own. */
  readonly configs?: never;
  /** Only without `servers`: the app's set has its own. */
  readonly store?: never;
  /** Only without `servers`: the app's set has its own. */
  readonly options?: never;
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
  const [owned] = useState(() => ownSet(() => latest.current));
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
  // Keyed by what the configs say, so a list written inline (a new array at every render) is added once.
  const configsKey = configs ? JSON.stringify(configs.map(configKey)) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: configsKey stands for configs
  useEffect(() => {
    if (!configs || configs.length === 0) return;
    let live = true;
    void owned.whenMade().then((made) => {
      if (live) void addMissing(made, configs);
    });
    return () => {
      live = false;
    };
  }, [configsKey, owned]);

  return createElement(ServerSetContext.Provider, { value: set }, children);
}

/** The `onError` of each set a provider made, for the configs it refuses. */
const reporters = new WeakMap<Servers, (error: Error) => void>();
/** The names (folded) each set a provider made is adding from `configs`, so two passes never add one twice. */
const adding = new WeakMap<Servers, Set<string>>();

/**
 * The set a provider makes from its props (read when it is made): restoring
 * what the store holds at the first `acquire()`, closed (sessions kept in the
 * store) after the last `release()`.
 */
export function ownSet(props: () => McpProviderProps): Held<Servers> {
  return new Held(
    () => makeSet(props()),
    (servers) => void servers.close(),
    (servers, changed) => servers.subscribe(changed),
  );
}

function makeSet(props: McpProviderProps): Servers {
  const { store, options } = props as McpProviderWithConfigs;
  const resolved = onTheClient(options) ?? {};
  const madeStore = onTheClient(store);
  const made = new Servers({ ...resolved, ...(madeStore && { store: madeStore }) });
  if (resolved.onError) reporters.set(made, resolved.onError);
  // A store that fails while restoring is told to onError by the set itself; this catches the rest (bad options).
  made.restore().catch((error: unknown) => resolved.onError?.(asError(error)));
  return made;
}

/** Adds each config whose name the set lacks, after the stored ones are restored; refusals go to `onError`. */
async function addMissing(servers: Servers, configs: readonly ServerConfig[]): Promise<void> {
  const onError = reporters.get(servers);
  const underway = adding.get(servers) ?? new Set<string>();
  adding.set(servers, underway);
  await servers.restore().catch(() => {});
  for (const config of configs) {
    if (servers.getSnapshot().closed) return;
    const name = typeof config?.name === 'string' ? foldSourceName(config.name) : '';
    if (servers.get(config.name) || underway.has(name)) continue;
    underway.add(name);
    try {
      await servers.add(config);
    } catch (error) {
      onError?.(asError(error));
    } finally {
      underway.delete(name);
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

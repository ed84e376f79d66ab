import type { CatalogueTool, Connection, ConnectionSnapshot, ServerConfig, Servers } from '@mcp/core/connections';
import { useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import { EMPTY_SET_SNAPSHOT, type ServerSet, ServerSetContext } from './server-set.js';

/** What {@link useMcpServers} returns: the set as it is now, and what changes it. */
export interface UseMcpServersResult {
  /** Each server's snapshot, in the order they were added: its name, state, tools, pending requests. */
  readonly servers: readonly ConnectionSnapshot[];
  /**
   * The tools of every ready server under the names a model sees
   * (`github__search` where two servers list `search`), for a chat's model call.
   */
  readonly tools: readonly CatalogueTool[];
  /** What the merged catalogue changed from the listings: a description cut, a tool left out or renamed. */
  readonly warnings: readonly string[];
  /** True while the stored configs are read back. */
  readonly loading: boolean;
  /**
   * The `Servers` set itself, for what takes one (`mcpToolSet(set)` of
   * `@mcp/ai-sdk`, `set.ready()`); undefined during server rendering and until
   * the provider made it.
   */
  readonly set: Servers | undefined;
  /**
   * Adds a server, keeps its config in the store, and connects it. Resolves
   * once it is stored, not when it is ready; rejects with a `ConnectionError`
   * (`invalid_config`: not usable, or the name is taken) or a `LimitError`
   * (`maxServers`, `maxConfigBytes`), and nothing changes then.
   */
  add(config: ServerConfig): Promise<Connection>;
  /** Replaces the config of the server named `name`: its connection closes and a new one connects. */
  update(name: string, config: Omit<ServerConfig, 'name'> & { readonly name?: string }): Promise<Connection>;
  /** Removes the server named `name`, ending its session; resolves with whether there was one. */
  remove(name: string): Promise<boolean>;
  /** The connection of the server named `name` (in any case), for what the hooks do not wrap; undefined when none. */
  get(name: string): Connection | undefined;
  /**
   * Hands a sign-in callback URL to every server waiting for one (the plain-link
   * path: `listenForAuthorizationResponses(completeAuthorization)` from
   * `@mcp/core/browser`). True when one took it.
   */
  completeAuthorization(callbackUrl: string | URL): boolean;
}

/**
 * Every server of the nearest {@link McpProvider}'s set, its merged tools, and
 * `add`, `update` and `remove`. Re-renders only when the set's snapshot
 * changed; the functions keep their identity. During server rendering the set
 * is empty. Throws outside a provider.
 */
export function useMcpServers(): UseMcpServersResult {
  const set = useServerSet('useMcpServers()');
  const snapshot = useSyncExternalStore(
    set.subscribe,
    () => set.current?.getSnapshot() ?? EMPTY_SET_SNAPSHOT,
    () => EMPTY_SET_SNAPSHOT,
  );
  const add = useCallback((config: ServerConfig) => set.whenMade().then((made) => made.add(config)), [set]);
  const update = useCallback(
    (name: string, config: Omit<ServerConfig, 'name'> & { readonly name?: string }) =>
      set.whenMade().then((made) => made.update(name, config)),
    [set],
  );
  const remove = useCallback((name: string) => set.whenMade().then((made) => made.remove(name)), [set]);
  const get = useCallback((name: string) => set.current?.get(name), [set]);
  const completeAuthorization = useCallback(
    (callbackUrl: string | URL) => completeAny(set.current, callbackUrl),
    [set],
  );
  const current = set.current;
  return useMemo(
    () => ({
      servers: snapshot.servers,
      tools: snapshot.tools,
      warnings: snapshot.warnings,
      loading: snapshot.loading,
      set: current,
      add,
      update,
      remove,
      get,
      completeAuthorization,
    }),
    [snapshot, current, add, update, remove, get, completeAuthorization],
  );
}

/** The nearest provider's set; throws, naming `hook`, outside any provider. */
export function useServerSet(hook: string): ServerSet {
  const set = useContext(ServerSetContext);
  if (!set) throw new Error(`@mcp/react: ${hook} needs an <McpProvider> above it`);
  return set;
}

function completeAny(servers: Servers | undefined, callbackUrl: string | URL): boolean {
  let taken = false;
  for (const connection of servers?.list() ?? []) {
    if (connection.completeAuthorization(callbackUrl)) taken = true;
  }
  return taken;
}

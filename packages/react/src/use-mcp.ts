import type { CallOptions, CallToolOptions, PromptResult, ReadResourceResult, ToolResult } from '@mcp/core';
import {
  Connection,
  ConnectionError,
  type ConnectionOptions,
  type ConnectionSnapshot,
  type ConnectionStatus,
  type ServerConfig,
} from '@mcp/core/connections';
import { useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { configKey } from './config-key.js';
import { Held } from './held.js';
import { failedSnapshot, idleSnapshot } from './idle-snapshot.js';
import { type OnTheClient, onTheClient } from './on-the-client.js';
import { type ServerSet, ServerSetContext } from './server-set.js';

/**
 * What {@link useMcp} returns: the server's snapshot (state, server info, era,
 * tools, prompts and resources when kept, pending requests), and what acts on
 * it. A new object only when the snapshot changed; the functions keep their
 * identity across renders.
 */
export interface UseMcpResult extends ConnectionSnapshot {
  /** `state.status`, for a switch: `idle`, `connecting`, `authorizing`, `ready`, `reconnecting`, `failed`, `closed`. */
  readonly status: ConnectionStatus;
  /** The connection underneath, for what the hook does not wrap (`connection.client`); undefined until there is one. */
  readonly connection: Connection | undefined;
  /**
   * Calls a tool: once the server is ready, waiting for it while it connects,
   * signs in or reconnects (within `options.timeout`). `options.onProgress`
   * hears the call's progress, `options.signal` aborts it. Rejects with a
   * `ConnectionError` when the server is idle, failed or closed, or not in the
   * provider's set.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<ToolResult>;
  /**
   * Opens the sign-in the server waits on (`status === 'authorizing'`) with the
   * app's `oauth.authorize` handler, before it returns: call it straight from a
   * click handler, with no `await` before it, or the browser blocks the popup.
   * Resolves when the handler settled; never rejects.
   */
  authorize(): Promise<void>;
  /** Tries again now: from `failed` with a whole budget, or from `reconnecting` without waiting. Nobody need await it. */
  reconnect(): Promise<void>;
  /** Gets a prompt from the ready server; rejects with a `ConnectionError` (`not_ready`) otherwise. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult>;
  /** Reads a resource from the ready server; rejects with a `ConnectionError` (`not_ready`) otherwise. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  /** Completes the sign-in waiting with the URL its callback page was opened with (the plain-link path): true when it was this server's. */
  completeAuthorization(callbackUrl: string | URL): boolean;
}

/** Where the hook's connection comes from: the provider's set (by name) or the hook's own. */
interface Target {
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ConnectionSnapshot;
  /** The connection now, if there is one. */
  now(): Connection | undefined;
  /** The connection once there is one; rejects when the set does not hold the name. */
  later(): Promise<Connection>;
}

/**
 * One MCP server, as a component shows and uses it.
 *
 * With a name, the server of that name in the nearest {@link McpProvider}'s set
 * (throws outside a provider). The provider's set owns the connection: a
 * component that unmounts closes nothing. A name the set does not hold reads as
 * `idle` until it is added.
 *
 * With a config, a connection of the hook's own, apart from any provider: made
 * and connected on the client after the first render, closed when the
 * component unmounts for good (not at StrictMode's extra unmount). `options`
 * (or the function that makes them, on the client: for a `LocalStorageStore`)
 * are read when it is made; it is made again when the config's `name`, `url`,
 * `headers` or `oauth` change. Two components with the same config make two
 * connections: share one through a provider. A config that is not usable reads
 * as `failed` with the `ConnectionError`.
 *
 * Re-renders only when the server's snapshot changed. During server rendering
 * it is `idle` with empty lists, and nothing connects.
 *
 * ```tsx
 * const notes = useMcp({ name: 'notes', url: 'https://example.com/mcp' });
 * if (notes.status !== 'ready') return <p>{notes.status}</p>;
 * ```
 */
export function useMcp(name: string): UseMcpResult;
export function useMcp(config: ServerConfig, options?: OnTheClient<ConnectionOptions>): UseMcpResult;
export function useMcp(server: string | ServerConfig, options?: OnTheClient<ConnectionOptions>): UseMcpResult {
  const set = useContext(ServerSetContext);
  const byName = typeof server === 'string';
  const key = byName ? undefined : configKey(server);
  const name = byName ? server : String((server as Partial<ServerConfig> | null)?.name);
  if (byName && !set) throw new Error(`@mcp/react: useMcp(${JSON.stringify(server)}) needs an <McpProvider> above it`);

  // A new holder only when the config's JSON parts change; the config and options of its first render make it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the config
  const owned = useMemo(() => (byName ? undefined : ownConnection(server, options)), [key]);
  const [failure, setFailure] = useState<{ readonly owned: Held<Connection>; readonly error: Error }>();
  useEffect(() => {
    if (!owned) return;
    try {
      owned.acquire();
    } catch (error) {
      setFailure({ owned, error: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    return () => owned.release();
  }, [owned]);

  const idle = useMemo(() => idleSnapshot(name), [name]);
  const failed = failure && failure.owned === owned ? failure.error : undefined;
  const target = useMemo(
    () =>
      owned
        ? ownedTarget(owned, failed ? failedSnapshot(name, failed) : idle)
        : setTarget(set as ServerSet, name, idle),
    [owned, set, name, idle, failed],
  );
  const snapshot = useSyncExternalStore(target.subscribe, target.getSnapshot, () => idle);

  const callTool = useCallback(
    async (tool: string, args?: Record<string, unknown>, callOptions?: CallToolOptions): Promise<ToolResult> => {
      const connection = target.now() ?? (await target.later());
      return connection.callTool(tool, args, callOptions);
    },
    [target],
  );
  const authorize = useCallback(() => target.now()?.authorize() ?? Promise.resolve(), [target]);
  const reconnect = useCallback(() => {
    const connection = target.now();
    return connection ? connection.reconnect() : quiet(target.later().then((later) => later.reconnect()));
  }, [target]);
  const getPrompt = useCallback(
    async (prompt: string, args?: Record<string, string>, callOptions?: CallOptions) => {
      const connection = target.now() ?? (await target.later());
      return connection.client.getPrompt(prompt, args, callOptions);
    },
    [target],
  );
  const readResource = useCallback(
    async (uri: string, callOptions?: CallOptions) => {
      const connection = target.now() ?? (await target.later());
      return connection.client.readResource(uri, callOptions);
    },
    [target],
  );
  const completeAuthorization = useCallback(
    (callbackUrl: string | URL) => target.now()?.completeAuthorization(callbackUrl) ?? false,
    [target],
  );

  return useMemo(
    () => ({
      ...snapshot,
      status: snapshot.state.status,
      connection: target.now(),
      callTool,
      authorize,
      reconnect,
      getPrompt,
      readResource,
      completeAuthorization,
    }),
    [snapshot, target, callTool, authorize, reconnect, getPrompt, readResource, completeAuthorization],
  );
}

/** The server named `name` in the provider's set. */
function setTarget(set: ServerSet, name: string, idle: ConnectionSnapshot): Target {
  return {
    subscribe: set.subscribe,
    getSnapshot: () => set.current?.get(name)?.getSnapshot() ?? idle,
    now: () => set.current?.get(name),
    later: async () => {
      const servers = await set.whenMade();
      const connection = servers.get(name);
      if (connection) return connection;
      throw new ConnectionError('not_ready', `${name}: the provider's set holds no server of this name`);
    },
  };
}

/** The hook's own connection. */
function ownedTarget(owned: Held<Connection>, idle: ConnectionSnapshot): Target {
  return {
    subscribe: owned.subscribe,
    getSnapshot: () => owned.current?.getSnapshot() ?? idle,
    now: () => owned.current,
    later: () => owned.whenMade(),
  };
}

/** A connection of `config`, made and connected at the first `acquire()`, closed (ending its session) after the last `release()`. */
export function ownConnection(
  config: ServerConfig,
  options: OnTheClient<ConnectionOptions> | undefined,
): Held<Connection> {
  return new Held(
    () => {
      const connection = new Connection(config, onTheClient(options));
      void connection.connect();
      return connection;
    },
    (connection) => void connection.close(),
    (connection, changed) => connection.subscribe(() => changed()),
  );
}

/** `promise`, with its rejection marked handled, for a caller who need not await it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

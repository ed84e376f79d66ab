import { LimitError } from '../errors/limit-error.js';
import { jsonExcerpt } from '../util/excerpt.js';
import { timerDelay } from '../util/timers.js';
import { Connection } from './connection.js';
import { ConnectionError } from './connection-error.js';
import { type ConnectionOptions, DEFAULT_PREFIX } from './connection-options.js';
import type { ConnectionEvent, ConnectionSnapshot, ConnectionStatus } from './connection-state.js';
import type { ServerConfig } from './server-config.js';
import { checkGivenConfig, checkStoredConfig, DEFAULT_MAX_CONFIG_BYTES, storedNames } from './set-config.js';
import type { Store } from './store.js';
import { type ToolBounds, toolBounds } from './tool-bounds.js';
import { type CatalogueTool, type ToolCatalogue, toolCatalogue } from './tool-catalogue.js';
import { foldSourceName, isSourceName, SOURCE_NAME_RULE } from './tool-names.js';

/** Servers one set holds by default (`maxServers`): every one's tools go into every model call. */
export const DEFAULT_MAX_SERVERS = 32;

/** How long `ready()` waits by default, in ms (30 s); `Infinity` waits for every server to settle. */
export const DEFAULT_READY_TIMEOUT = 30_000;

/** How a {@link Servers} set persists, connects and names its tools; every field is optional. */
export interface ServersOptions {
  /**
   * Where each server's session, era verdict and OAuth state are kept, and the
   * configs too unless `configStore` is given. Without either, nothing persists.
   */
  readonly store?: Store;
  /**
   * Where the configs are kept instead (`<prefix>configs`, `<prefix>config:<name>`):
   * Workers KV, say, which is fit for configs but not for sessions or tokens.
   */
  readonly configStore?: Store;
  /**
   * Where each server's session is kept instead of `store` (default: `store`);
   * configs, era verdicts and OAuth state stay in `store`. In a browser, one per
   * tab (`new LocalStorageStore({ storage: sessionStorage, locks: false })`):
   * tabs then share the servers and the sign-ins but never a session, which
   * carries one stream of server messages and ends for all when one tab ends it.
   */
  readonly sessionStore?: Store;
  /** Prepended to every key the set and its connections write (default `mcp:`). */
  readonly prefix?: string;
  /** Options of every connection; the set's `store`, `sessionStore` and `prefix` are theirs. */
  readonly connection?: Omit<ConnectionOptions, 'store' | 'sessionStore' | 'prefix'>;
  /** Hears every event of every server, with the server's name, for an app's log. */
  readonly onEvent?: (event: ConnectionEvent, name: string) => void;
  /**
   * Told of what the set worked around without failing a call: a stored config
   * that is not usable (skipped, left in the store), a stored list past
   * `maxServers`, a store that failed while restoring, a listener that threw.
   */
  readonly onError?: (error: Error) => void;
  /** Most servers in the set (default {@link DEFAULT_MAX_SERVERS}); `add()` past it is a `LimitError`. */
  readonly maxServers?: number;
  /** Largest config, in bytes of its JSON (default 16384, `DEFAULT_MAX_CONFIG_BYTES`). */
  readonly maxConfigBytes?: number;
  /** How the merged catalogue names and bounds the tools. */
  readonly tools?: ServersToolOptions;
}

/** How a set's catalogue names and bounds its tools (`ServersOptions.tools`). */
export interface ServersToolOptions extends Partial<ToolBounds> {
  /**
   * Longest description a tool offers the model, in UTF-16 code units (default
   * {@link DEFAULT_MAX_DESCRIPTION_CHARS}); `Infinity` for none. A longer one
   * is cut to this length, its last character `…`, with a line in `warnings`.
   */
  readonly maxDescriptionChars?: number;
  /**
   * Largest input schema a tool may offer the model, in bytes of its JSON in
   * UTF-8 (default {@link DEFAULT_MAX_SCHEMA_BYTES}, 64 KiB); `Infinity` for
   * none. A tool whose schema is larger is left out, with a line in
   * `warnings`, and takes no name from the others.
   */
  readonly maxSchemaBytes?: number;
  /**
   * Put every tool's server name in front (`github__search`), not only the
   * names several servers list. With it, no name depends on which server
   * listed a tool first.
   */
  readonly prefix?: boolean;
}

/**
 * The whole set as a UI shows it: the same object until something in it
 * changes, so `useSyncExternalStore`, a Svelte store or a Vue ref re-render only
 * on change.
 */
export interface ServersSnapshot {
  /** Each server's snapshot, in the order they were added. */
  readonly servers: readonly ConnectionSnapshot[];
  /**
   * The tools of every ready server under the names a model sees (see
   * `toolCatalogue`). A tool keeps its name while its server lists it, also
   * through a reconnect: the names of a server that is not ready stay reserved.
   */
  readonly tools: readonly CatalogueTool[];
  /** What the catalogue changed from the listings: a description cut, a tool left out or renamed. */
  readonly warnings: readonly string[];
  /** True while `restore()` reads the stored configs. */
  readonly loading: boolean;
  /** True once `close()` was called. */
  readonly closed: boolean;
}

/** Options of {@link Servers.ready}. */
export interface ReadyOptions {
  /** Longest wait, in ms (default {@link DEFAULT_READY_TIMEOUT}); `Infinity` for none. */
  readonly timeout?: number;
  /** Ends the wait early: `ready()` rejects with its reason. */
  readonly signal?: AbortSignal;
}

/** States a server can leave by itself toward `ready`; `ready()` waits while any server is in one. */
const ON_ITS_WAY = new Set<ConnectionStatus>(['idle', 'connecting', 'reconnecting']);

/**
 * A set of MCP servers an app keeps: each a {@link Connection}, the configs
 * persisted in a store, one merged tool catalogue. A server that fails or waits
 * for the user to sign in stays beside the others and takes none of them down.
 *
 * ```ts
 * const servers = await Servers.open({ store });
 * await servers.add({ name: 'github', url: 'https://example.com/mcp' });
 * servers.subscribe(() => render(servers.getSnapshot()));
 * const { tools } = await servers.ready({ timeout: 10_000 });
 * ```
 *
 * Names are what the app calls each server: letters, digits and `-`, with
 * single `_` between them, at most 32 characters, no two the same but for case.
 * A name prefixes tool names (`github__search`) and store keys.
 */
export class Servers {
  readonly #options: ServersOptions;
  readonly #prefix: string;
  readonly #configStore: Store | undefined;
  readonly #maxServers: number;
  readonly #maxConfigBytes: number;
  readonly #bounds: ToolBounds;
  readonly #connections: Connection[] = [];
  readonly #unsubscribe = new Map<Connection, () => void>();
  readonly #listeners = new Set<() => void>();
  /** add, update, remove and restore, one at a time, so the stored list is never written by two at once. */
  #queue: Promise<unknown> = Promise.resolve();
  #restoring: Promise<void> | undefined;
  #loading = false;
  #closed = false;
  /** The catalogue over every server's last tools, ready or not: it keeps names while a server is away. */
  #catalogue: ToolCatalogue | undefined;
  /** The servers and tool lists the catalogue was made from, to make it again only when one changed. */
  #catalogued: { readonly names: readonly string[]; readonly lists: readonly (readonly unknown[])[] } = {
    names: [],
    lists: [],
  };
  #snapshot: ServersSnapshot;

  /**
   * A set with no servers yet; nothing is read or connected until `restore()`
   * or `add()`. Throws a TypeError for a bound that is not a whole number from 1 up.
   */
  constructor(options: ServersOptions = {}) {
    this.#options = options;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#configStore = options.configStore ?? options.store;
    this.#maxServers = whole('maxServers', options.maxServers, DEFAULT_MAX_SERVERS);
    this.#maxConfigBytes = whole('maxConfigBytes', options.maxConfigBytes, DEFAULT_MAX_CONFIG_BYTES);
    this.#bounds = toolBounds(options.tools ?? {}, 'Servers');
    this.#snapshot = Object.freeze({ servers: EMPTY, tools: EMPTY, warnings: EMPTY, loading: false, closed: false });
  }

  /** A set restored from `options`' store: `new Servers(options)`, then {@link restore}. */
  static async open(options: ServersOptions = {}): Promise<Servers> {
    const servers = new Servers(options);
    await servers.restore();
    return servers;
  }

  /**
   * Reads the stored configs and connects each server, resuming its stored
   * session (no handshake while it is alive). Resolves once every connection is
   * made and started, not when they are ready (see {@link ready}). A stored
   * config that is not usable is skipped and told to `onError`; it stays in the
   * store until `remove()`. Runs once: later calls return the same promise.
   */
  restore(): Promise<void> {
    if (this.#restoring) return this.#restoring;
    // Loading from this moment, so a ready() called next waits for what is stored.
    this.#loading = true;
    this.#changed();
    this.#restoring = this.#enqueue(async () => {
      try {
        await this.#restore();
      } finally {
        this.#loading = false;
        this.#changed();
      }
    });
    return this.#restoring;
  }

  /**
   * Adds a server, keeps its config in the store (unless it has a `transport`
   * factory, which cannot be stored), and connects it. Resolves with its
   * connection once the config is stored, without waiting for it to be ready.
   * Rejects with a `ConnectionError` (`invalid_config`: the config is not
   * usable, or its name is taken in any case; `closed`) or a `LimitError`
   * (`maxServers`, `maxConfigBytes`); nothing changes then.
   */
  add(config: ServerConfig): Promise<Connection> {
    return this.#enqueue(async () => {
      this.#open();
      const { config: checked, stored } = checkGivenConfig(config, this.#maxConfigBytes);
      if (this.#find(checked.name)) {
        throw new ConnectionError(
          'invalid_config',
          `Servers: a server is already named ${this.#find(checked.name)?.name}`,
        );
      }
      if (this.#connections.length >= this.#maxServers) {
        throw new LimitError('maxServers', this.#maxServers, `Servers: ${checked.name} would be one server too many`);
      }
      if (stored) await this.#storeConfig(stored.name, stored);
      return this.#start(checked);
    });
  }

  /**
   * Replaces the config of the server named `name` (the new config keeps that
   * name): its connection closes, ending its session, and a new one connects.
   * Rejects as `add()` does, and with a `ConnectionError` (`invalid_config`)
   * when no server is named `name`.
   */
  update(name: string, config: Omit<ServerConfig, 'name'> & { readonly name?: string }): Promise<Connection> {
    return this.#enqueue(async () => {
      this.#open();
      const old = this.#find(name);
      if (!old) throw new ConnectionError('invalid_config', `Servers: no server is named ${JSON.stringify(name)}`);
      if (config.name !== undefined && config.name !== old.name) {
        throw new ConnectionError(
          'invalid_config',
          `Servers: update() keeps the name ${old.name}; remove and add to rename`,
        );
      }
      const { config: checked, stored } = checkGivenConfig({ ...config, name: old.name }, this.#maxConfigBytes);
      if (stored) await this.#storeConfig(stored.name, stored);
      else await this.#forgetConfig(old.name);
      const index = this.#connections.indexOf(old);
      await this.#stop(old);
      return this.#start(checked, index);
    });
  }

  /**
   * Removes the server named `name` (in any case): closes its connection,
   * ending its session, and deletes its stored session and config. Resolves
   * with whether there was such a server, live or only in the store.
   */
  remove(name: string): Promise<boolean> {
    return this.#enqueue(async () => {
      this.#open();
      const connection = this.#find(name);
      const stored = await this.#forgetConfig(connection?.name ?? name);
      if (connection) await this.#stop(connection);
      else if (stored)
        await (this.#options.sessionStore ?? this.#options.store)?.delete(`${this.#prefix}session:${name}`);
      return connection !== undefined || stored;
    });
  }

  /** The connection of the server named `name` (in any case), or undefined. */
  get(name: string): Connection | undefined {
    return this.#find(name);
  }

  /** Every connection, in the order the servers were added. */
  list(): readonly Connection[] {
    return [...this.#connections];
  }

  /** The tools of every ready server, as in the snapshot: `getSnapshot().tools`. */
  tools(): readonly CatalogueTool[] {
    return this.#snapshot.tools;
  }

  /**
   * The set as it is now: the same object until something in it changes.
   * Bound to the set, so `useSyncExternalStore(servers.subscribe, servers.getSnapshot)` works as written.
   */
  readonly getSnapshot = (): ServersSnapshot => this.#snapshot;

  /**
   * Calls `listener` after each change of the snapshot (a server's state,
   * tools or pending requests; a server added or removed). Returns the function
   * that stops it. A listener that throws is told to `onError`. Bound to the set,
   * as `getSnapshot` is.
   */
  readonly subscribe = (listener: () => void): (() => void) => {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  };

  /**
   * Waits until no server is on its way to `ready` by itself (`idle`,
   * `connecting`, `reconnecting`), after `restore()` if it runs, or until
   * `timeout`. Servers that are `authorizing` (waiting for the user) or
   * `failed` do not hold it up. Resolves with the snapshot at that moment: read
   * each server's state in it, since at the timeout some may still be
   * connecting. Rejects only with `signal`'s reason.
   */
  async ready(options: ReadyOptions = {}): Promise<ServersSnapshot> {
    const timeout = options.timeout ?? DEFAULT_READY_TIMEOUT;
    if (!(timeout === Number.POSITIVE_INFINITY || (Number.isFinite(timeout) && timeout >= 0))) {
      throw new TypeError(
        `Servers: ready()'s timeout must be a number from 0 up, or Infinity (got ${String(timeout)})`,
      );
    }
    const { signal } = options;
    signal?.throwIfAborted();
    const settled = () =>
      !this.#snapshot.loading && this.#snapshot.servers.every((s) => !ON_ITS_WAY.has(s.state.status));
    if (settled()) return this.#snapshot;
    return new Promise<ServersSnapshot>((resolve, reject) => {
      const done = (error?: unknown) => {
        unsubscribe();
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve(this.#snapshot);
        else reject(error);
      };
      const onAbort = () => done(signal?.reason);
      const unsubscribe = this.subscribe(() => {
        if (settled() || this.#closed) done();
      });
      const timer = timeout === Number.POSITIVE_INFINITY ? undefined : setTimeout(() => done(), timerDelay(timeout));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Closes every connection and stops the set: nothing reconnects, and `add`,
   * `update` and `remove` reject with a `ConnectionError` (`closed`). Sessions
   * and configs stay in the store, so the next set on it (the next page, Worker
   * invocation or process) resumes them with no handshake; `remove()` a server
   * to end its session. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const connections = [...this.#connections];
    for (const unsubscribe of this.#unsubscribe.values()) unsubscribe();
    this.#unsubscribe.clear();
    this.#changed();
    await Promise.all(connections.map((connection) => connection.close({ keepSession: true })));
    this.#changed();
  }

  async #restore(): Promise<void> {
    const store = this.#configStore;
    if (!store || this.#closed) return;
    const listed = storedNames(await this.#read(store, `${this.#prefix}configs`));
    if (!listed) {
      this.#report(
        new ConnectionError(
          'invalid_config',
          `Servers: ${this.#prefix}configs is not a list of names; nothing restored`,
        ),
      );
      return;
    }
    const seen = new Set(this.#connections.map((connection) => foldSourceName(connection.name)));
    const names: string[] = [];
    for (const name of listed) {
      if (seen.has(foldSourceName(name))) continue;
      seen.add(foldSourceName(name));
      names.push(name);
    }
    const room = this.#maxServers - this.#connections.length;
    if (names.length > room) {
      this.#report(
        new LimitError('maxServers', this.#maxServers, `Servers: ${names.length - room} stored servers left out`),
      );
    }
    const configs = await Promise.all(
      names.slice(0, Math.max(0, room)).map(async (name) => {
        try {
          if (!isSourceName(name)) {
            const shown = jsonExcerpt(name, 64);
            throw new ConnectionError(
              'invalid_config',
              `Servers: stored name ${shown} is not a server name: use ${SOURCE_NAME_RULE}`,
            );
          }
          return checkStoredConfig(await store.get(`${this.#prefix}config:${name}`), name, this.#maxConfigBytes);
        } catch (error) {
          this.#report(asError(error));
          return undefined;
        }
      }),
    );
    for (const config of configs) if (config && !this.#closed) this.#start(config);
  }

  /** A connection for `config`, watched, connecting, at `index` in the set (the end unless given). */
  #start(config: ServerConfig, index = this.#connections.length): Connection {
    // Closed while the config was being stored: no connection may start after close().
    this.#open();
    const { store, sessionStore } = this.#options;
    const connection = new Connection(config, {
      ...this.#options.connection,
      ...(store && { store }),
      ...(sessionStore && { sessionStore }),
      prefix: this.#prefix,
    });
    this.#connections.splice(index, 0, connection);
    this.#unsubscribe.set(
      connection,
      connection.subscribe((event) => {
        try {
          this.#options.onEvent?.(event, connection.name);
        } catch (error) {
          this.#report(asError(error));
        }
        this.#changed();
      }),
    );
    this.#changed();
    void connection.connect();
    return connection;
  }

  /** Takes `connection` out of the set and closes it, ending its session and deleting the stored one. */
  async #stop(connection: Connection): Promise<void> {
    this.#unsubscribe.get(connection)?.();
    this.#unsubscribe.delete(connection);
    this.#connections.splice(this.#connections.indexOf(connection), 1);
    this.#changed();
    await connection.close();
  }

  async #storeConfig(name: string, stored: unknown): Promise<void> {
    const store = this.#configStore;
    if (!store) return;
    await store.set(`${this.#prefix}config:${name}`, stored);
    await store.update(`${this.#prefix}configs`, (current) => {
      const names = (storedNames(current) ?? []).filter((kept) => foldSourceName(kept) !== foldSourceName(name));
      return [...names, name];
    });
  }

  /** Deletes `name`'s stored config and takes it off the stored list; resolves with whether it was listed. */
  async #forgetConfig(name: string): Promise<boolean> {
    const store = this.#configStore;
    if (!store) return false;
    let listed = false;
    await store.update(`${this.#prefix}configs`, (current) => {
      const names = storedNames(current) ?? [];
      const kept = names.filter((stored) => foldSourceName(stored) !== foldSourceName(name));
      listed = kept.length < names.length;
      return kept;
    });
    await store.delete(`${this.#prefix}config:${name}`);
    return listed;
  }

  async #read(store: Store, key: string): Promise<unknown> {
    try {
      return await store.get(key);
    } catch (error) {
      this.#report(new Error(`Servers: the store failed reading ${key}`, { cause: error }));
      return undefined;
    }
  }

  #find(name: string): Connection | undefined {
    const folded = foldSourceName(name);
    return this.#connections.find((connection) => foldSourceName(connection.name) === folded);
  }

  #open(): void {
    if (this.#closed) throw new ConnectionError('closed', 'Servers: the set is closed');
  }

  /** Runs `task` after every earlier add, update, remove and restore; a failure fails only its own call. */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Makes the snapshot again from the connections' own, and tells the listeners if it changed. */
  #changed(): void {
    const previous = this.#snapshot;
    const servers = sameItems(
      previous.servers,
      this.#connections.map((connection) => connection.getSnapshot()),
    );
    const { tools, warnings } = this.#offered(servers);
    if (
      servers === previous.servers &&
      tools === previous.tools &&
      warnings === previous.warnings &&
      this.#loading === previous.loading &&
      this.#closed === previous.closed
    ) {
      return;
    }
    this.#snapshot = Object.freeze({ servers, tools, warnings, loading: this.#loading, closed: this.#closed });
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#report(asError(error));
      }
    }
  }

  /** The catalogue's tools of the ready servers, made again only when a server's tools changed. */
  #offered(servers: readonly ConnectionSnapshot[]): Pick<ServersSnapshot, 'tools' | 'warnings'> {
    const lists = servers.map((server) => server.tools);
    const names = servers.map((server) => server.name);
    const previous = this.#snapshot;
    if (!this.#catalogue || !sameList(lists, this.#catalogued.lists) || !sameList(names, this.#catalogued.names)) {
      this.#catalogue = toolCatalogue(
        servers.map(({ name, tools }) => ({ name, tools })),
        {
          bounds: this.#bounds,
          prefixAll: this.#options.tools?.prefix === true,
          caller: 'Servers',
          ...(this.#catalogue && { previous: this.#catalogue }),
        },
      );
      this.#catalogued = { names, lists };
    }
    const ready = new Set(servers.filter((server) => server.state.status === 'ready').map((server) => server.name));
    const tools = sameItems(
      previous.tools,
      this.#catalogue.tools.filter((tool) => ready.has(tool.server)),
      sameTool,
    );
    const warnings = sameItems(previous.warnings, this.#catalogue.warnings);
    return { tools, warnings };
  }

  #report(error: Error): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // Nowhere left to report it: throwing here would break the set's own bookkeeping.
    }
  }
}

const EMPTY: readonly never[] = Object.freeze([]);

/** `next`, or `previous` when they hold the same items (by `same`), so the snapshot keeps its identity. */
function sameItems<T>(
  previous: readonly T[],
  next: readonly T[],
  same: (a: T, b: T) => boolean = Object.is,
): readonly T[] {
  if (previous.length === next.length && previous.every((item, index) => same(item, next[index] as T))) return previous;
  return next.length === 0 ? EMPTY : Object.freeze(next);
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function sameTool(a: CatalogueTool, b: CatalogueTool): boolean {
  return a.name === b.name && a.server === b.server && a.tool === b.tool && a.description === b.description;
}

function whole(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value >= 1) return value;
  throw new TypeError(`Servers: ${name} must be a whole number from 1 up (got ${String(value)})`);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

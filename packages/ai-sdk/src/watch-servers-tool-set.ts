import { McpError } from '@mcp/core';
import type { Servers, ServersSnapshot } from '@mcp/core/connections';
import type { ToolSet } from 'ai';
import { serversToolSet } from './servers-tool-set.js';
import type { McpToolSetWatcher, WatchMcpToolSetOptions } from './watch-mcp-tool-set.js';

const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/**
 * `watchMcpToolSet` over a server set: the set's connections keep each
 * server's tools current and its catalogue keeps their names, so the watcher
 * only follows the set's snapshot and makes a new `ToolSet` when its tools
 * changed (a server became ready or stopped being ready, a listing changed).
 * `refresh()` lists nothing: it resolves with the set's tools as they are.
 */
export class ServersWatcher implements McpToolSetWatcher {
  readonly #servers: Servers;
  readonly #options: WatchMcpToolSetOptions;
  readonly #unsubscribe: () => void;
  #snapshot: ServersSnapshot;
  #tools: ToolSet;
  #closed = false;

  /** Throws a TypeError for an option the set decides (see `serversToolSet`). */
  constructor(servers: Servers, options: WatchMcpToolSetOptions) {
    this.#servers = servers;
    this.#options = options;
    this.#snapshot = servers.getSnapshot();
    const built = serversToolSet(servers, options, this.#snapshot);
    this.#tools = built.tools;
    this.#warn(built.warnings, []);
    this.#unsubscribe = servers.subscribe(() => this.#follow());
  }

  get tools(): ToolSet {
    return this.#tools;
  }

  refresh(): Promise<ToolSet> {
    if (this.#closed) return Promise.reject(new McpError('watchMcpToolSet: the watcher is closed'));
    this.#follow();
    return Promise.resolve(this.#tools);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }

  /** A new `ToolSet` when the set's tools changed; the set keeps the array while they do not. */
  #follow(): void {
    if (this.#closed) return;
    const previous = this.#snapshot;
    const snapshot = this.#servers.getSnapshot();
    this.#snapshot = snapshot;
    if (snapshot.tools === previous.tools && snapshot.warnings === previous.warnings) return;
    const built = serversToolSet(this.#servers, this.#options, snapshot);
    this.#warn(built.warnings, previous.warnings);
    if (snapshot.tools === previous.tools) return;
    this.#tools = built.tools;
    try {
      this.#options.onChange?.(this.#tools);
    } catch (error) {
      this.#report(error);
    }
  }

  /** Tells `onWarning` of each warning not in `seen`. */
  #warn(warnings: readonly string[], seen: readonly string[]): void {
    for (const warning of warnings) {
      if (seen.includes(warning)) continue;
      try {
        this.#options.onWarning?.(warning);
      } catch (error) {
        this.#report(error);
      }
    }
  }

  #report(error: unknown): void {
    if (this.#closed) return;
    try {
      this.#options.onError?.(error);
    } catch {
      // Nowhere left to report it.
    }
  }
}

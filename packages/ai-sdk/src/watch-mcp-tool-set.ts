import type { Subscription, Tool } from '@mcp/core';
import type { ToolSet } from 'ai';
import { buildToolSet, type McpToolSetOptions, type McpToolSource, namedClients } from './mcp-tool-set.js';

/** {@link watchMcpToolSet}'s options: naming and calls as for `mcpToolSet`, and where changes are reported. */
export interface WatchMcpToolSetOptions extends McpToolSetOptions {
  /** Called with the new set after each re-listing (whether or not the tools differ). */
  readonly onChange?: (tools: ToolSet) => void;
  /**
   * A re-listing after a change notification failed (the previous tools stay
   * until the next change or `refresh()`),
   * or a client's change stream broke (that client is no longer watched).
   * Without it, such failures are dropped.
   */
  readonly onError?: (error: unknown) => void;
}

/** A `ToolSet` kept current; see {@link watchMcpToolSet}. */
export interface McpToolSetWatcher extends AsyncDisposable {
  /** The tools as last listed: a new object after each change, so read it for each `generateText` call. */
  readonly tools: ToolSet;
  /** Lists every client's tools again now (bypassing the TTL cache) and resolves with the new set. */
  refresh(): Promise<ToolSet>;
  /** Stops listening for changes; `tools` stays as it was. Idempotent. */
  close(): Promise<void>;
}

const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/**
 * Like `mcpToolSet`, but kept current: it listens for
 * `notifications/tools/list_changed` on each client (`client.listen({ toolsListChanged: true })`)
 * and lists that client's tools again when one arrives. Notifications that
 * arrive while a listing runs are served by one more listing, not one each.
 *
 * A `ToolSet` given to `generateText` or `streamText` is fixed for that run, so
 * pass `watcher.tools` to each run (or rebuild an agent in `onChange`). Close
 * the watcher (or `await using` it) when done; closing the clients ends it too.
 */
export async function watchMcpToolSet(
  source: McpToolSource,
  options: WatchMcpToolSetOptions = {},
): Promise<McpToolSetWatcher> {
  const named = namedClients(source, options.prefix);
  const subscriptions: Subscription[] = [];
  try {
    // Listen first, so no change between the listing and the subscription is missed.
    for (const client of named.clients) subscriptions.push(await client.listen({ toolsListChanged: true }));
    const listings = await Promise.all(named.clients.map((client) => client.listTools()));
    return new Watcher(named, listings, subscriptions, options);
  } catch (error) {
    await Promise.allSettled(subscriptions.map((subscription) => subscription.close()));
    throw error;
  }
}

class Watcher implements McpToolSetWatcher {
  readonly #named: Parameters<typeof buildToolSet>[0];
  readonly #listings: (readonly Tool[])[];
  readonly #subscriptions: readonly Subscription[];
  readonly #options: WatchMcpToolSetOptions;
  /** Clients whose tools must be listed again. */
  readonly #stale = new Set<number>();
  #tools: ToolSet;
  #listing: Promise<ToolSet> | undefined;
  #closed = false;

  constructor(
    named: Parameters<typeof buildToolSet>[0],
    listings: (readonly Tool[])[],
    subscriptions: readonly Subscription[],
    options: WatchMcpToolSetOptions,
  ) {
    this.#named = named;
    this.#listings = listings;
    this.#subscriptions = subscriptions;
    this.#options = options;
    this.#tools = buildToolSet(named, listings, options);
    subscriptions.forEach((subscription, index) => {
      void this.#follow(subscription, index);
    });
  }

  get tools(): ToolSet {
    return this.#tools;
  }

  refresh(): Promise<ToolSet> {
    this.#named.clients.forEach((_, index) => {
      this.#stale.add(index);
    });
    return this.#relist();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled(this.#subscriptions.map((subscription) => subscription.close()));
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }

  async #follow(subscription: Subscription, index: number): Promise<void> {
    try {
      for await (const _ of subscription) {
        this.#stale.add(index);
        this.#relist().catch((error: unknown) => this.#options.onError?.(error));
      }
    } catch (error) {
      if (!this.#closed) this.#options.onError?.(error);
    }
  }

  /** Lists the stale clients again, until none is; one loop at a time, shared by every caller. */
  #relist(): Promise<ToolSet> {
    this.#listing ??= (async () => {
      try {
        while (this.#stale.size > 0) {
          const indices = [...this.#stale];
          this.#stale.clear();
          const listings = await Promise.all(
            indices.map((index) => this.#named.clients[index]?.listTools({ cache: false }) ?? []),
          );
          indices.forEach((index, position) => {
            this.#listings[index] = listings[position] ?? [];
          });
          this.#tools = buildToolSet(this.#named, this.#listings, this.#options);
          this.#options.onChange?.(this.#tools);
        }
        return this.#tools;
      } finally {
        this.#listing = undefined;
      }
    })();
    return this.#listing;
  }
}

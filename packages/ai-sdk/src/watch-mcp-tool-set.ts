import { ClientClosedError, McpError, type Subscription, type Tool } from '@mcp/core';
import type { ToolCatalogue } from '@mcp/core/connections';
import { timerDelay } from '@mcp/core/transport';
import type { ToolSet } from 'ai';
import {
  buildToolSet,
  type McpToolSetOptions,
  type McpToolSource,
  type ToolSetRecipe,
  toolSetRecipe,
} from './mcp-tool-set.js';
import { isServers } from './servers-tool-set.js';
import { ServersWatcher } from './watch-servers-tool-set.js';

/** The delays between retries of a failed re-listing, in milliseconds. */
export interface RelistRetryMs {
  /** After the first failure; it doubles after each further one. */
  readonly firstMs: number;
  /** The longest wait between two tries. */
  readonly maxMs: number;
}

/**
 * How long a watcher waits before listing again a client whose re-listing
 * failed: `firstMs` after the first failure, doubling after each further one,
 * never more than `maxMs`. It keeps trying until a listing succeeds, the watcher
 * is closed, or the client is (a `ClientClosedError` is not retried).
 */
export const RELIST_RETRY_MS: RelistRetryMs = { firstMs: 1_000, maxMs: 30_000 };

/**
 * {@link watchMcpToolSet}'s options: naming, bounds and calls as for
 * `mcpToolSet`, and where changes are reported. `onWarning` hears of each
 * warning once, in the first listing that gives it: a tool cut or left out
 * again in later listings is not reported again.
 */
export interface WatchMcpToolSetOptions extends McpToolSetOptions {
  /**
   * Called with the new set after each re-listing (whether or not the tools
   * differ). If it throws, the error goes to `onError`; the new set stays.
   */
  readonly onChange?: (tools: ToolSet) => void;
  /**
   * Called with what went wrong, once for each:
   * - a re-listing failed (after a change, a retry, or `refresh()`): the client's previous tools stay,
   *   and it is listed again after {@link RELIST_RETRY_MS};
   * - a client's change stream broke, or ended while its client is still open (a 2026-07-28 server
   *   may end a `subscriptions/listen` stream): that client is no longer watched, though its tools stay
   *   and `refresh()` still lists them;
   * - `onChange` or `onWarning` threw.
   *
   * Nothing is reported once the watcher is closed. An `onError` that throws
   * is ignored (there is nowhere left to report it). Without it, these are dropped.
   */
  readonly onError?: (error: unknown) => void;
  /** The delays between retries of a failed re-listing (default {@link RELIST_RETRY_MS}). */
  readonly retryMs?: Partial<RelistRetryMs>;
}

/** A `ToolSet` kept current; see {@link watchMcpToolSet}. */
export interface McpToolSetWatcher extends AsyncDisposable {
  /** The tools as last listed: a new object after each change, so read it for each `generateText` call. */
  readonly tools: ToolSet;
  /**
   * Lists every client's tools again now (bypassing the TTL cache) and resolves with the new set.
   * Rejects with the first listing's error if one failed (also reported to `onError`), and with an
   * `McpError` once the watcher is closed, also for a listing that was under way when it closed.
   */
  refresh(): Promise<ToolSet>;
  /**
   * Stops listening for changes and retrying; `tools` stays as it was, and a
   * listing under way changes nothing and reports nothing. Idempotent.
   */
  close(): Promise<void>;
}

const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/**
 * Like `mcpToolSet`, but kept current: it listens for
 * `notifications/tools/list_changed` on each client (`client.listen({ toolsListChanged: true })`)
 * and lists that client's tools again when one arrives. Notifications that
 * arrive while a listing runs are served by one more listing, not one each.
 *
 * From a server set, it follows the set: the tools of every ready server,
 * current as its connections keep them, each under its name in the set's
 * catalogue while its server lists it (also through a reconnect). `refresh()`
 * resolves with them as they are, and `onChange` is told when they changed.
 *
 * A `ToolSet` given to `generateText` or `streamText` is fixed for that run, so
 * pass `watcher.tools` to each run (or rebuild an agent in `onChange`). Close
 * the watcher (or `await using` it) when done; closing the clients ends it too.
 */
export async function watchMcpToolSet(
  source: McpToolSource,
  options: WatchMcpToolSetOptions = {},
): Promise<McpToolSetWatcher> {
  if (isServers(source)) return new ServersWatcher(source, options);
  const recipe = toolSetRecipe(source, options);
  const subscriptions: Subscription[] = [];
  try {
    // Listen first, so no change between the listing and the subscription is missed.
    for (const client of recipe.clients) subscriptions.push(await client.listen({ toolsListChanged: true }));
    const listings = await Promise.all(recipe.clients.map((client) => client.listTools()));
    return new Watcher(recipe, listings, subscriptions, options);
  } catch (error) {
    await Promise.allSettled(subscriptions.map((subscription) => subscription.close()));
    throw error;
  }
}

const closedError = () => new McpError('watchMcpToolSet: the watcher is closed');

class Watcher implements McpToolSetWatcher {
  readonly #recipe: ToolSetRecipe;
  readonly #listings: (readonly Tool[])[];
  readonly #subscriptions: readonly Subscription[];
  readonly #options: WatchMcpToolSetOptions;
  /** Clients whose tools must be listed again. */
  readonly #stale = new Set<number>();
  /** Clients whose last listing failed: listed again when the retry timer fires (or sooner). */
  readonly #failed = new Set<number>();
  /** Clients whose change stream ended quietly: the next listing tells an open client from a closed one. */
  readonly #ended = new Set<number>();
  #tools: ToolSet;
  /** The catalogue last built: a tool keeps the name it had there while it is listed, and only new warnings are told. */
  #catalogue: ToolCatalogue | undefined;
  #listing: Promise<ToolSet> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Failed listings in a row, for the retry backoff. */
  #failures = 0;
  #closed = false;

  constructor(
    recipe: ToolSetRecipe,
    listings: (readonly Tool[])[],
    subscriptions: readonly Subscription[],
    options: WatchMcpToolSetOptions,
  ) {
    this.#recipe = recipe;
    this.#listings = listings;
    this.#subscriptions = subscriptions;
    this.#options = options;
    this.#tools = this.#build();
    subscriptions.forEach((subscription, index) => {
      void this.#follow(subscription, index);
    });
  }

  get tools(): ToolSet {
    return this.#tools;
  }

  refresh(): Promise<ToolSet> {
    if (this.#closed) return Promise.reject(closedError());
    this.#recipe.clients.forEach((_, index) => {
      this.#stale.add(index);
    });
    return this.#relist();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    await Promise.allSettled(this.#subscriptions.map((subscription) => subscription.close()));
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }

  async #follow(subscription: Subscription, index: number): Promise<void> {
    try {
      for await (const _ of subscription) {
        this.#stale.add(index);
        // A failure is reported by the listing itself.
        this.#relist().catch(() => {});
      }
    } catch (error) {
      this.#report(error);
      return;
    }
    if (this.#closed) return;
    // Ended without an error: the client was closed, or the server ended the stream. A listing
    // tells which (a closed client refuses it), and catches up with changes the stream missed.
    this.#ended.add(index);
    this.#stale.add(index);
    this.#relist().catch(() => {});
  }

  /** Lists the stale clients again, until none is; one loop at a time, shared by every caller. */
  #relist(): Promise<ToolSet> {
    if (this.#closed) return Promise.reject(closedError());
    this.#listing ??= this.#run().finally(() => {
      this.#listing = undefined;
      this.#scheduleRetry();
    });
    return this.#listing;
  }

  async #run(): Promise<ToolSet> {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    for (const index of this.#failed) this.#stale.add(index);
    this.#failed.clear();
    let failure: { error: unknown } | undefined;
    while (this.#stale.size > 0) {
      const indices = [...this.#stale];
      this.#stale.clear();
      const outcomes = await Promise.allSettled(
        indices.map(async (index) => (await this.#recipe.clients[index]?.listTools({ cache: false })) ?? []),
      );
      // Closed meanwhile: nothing changes and nothing is reported.
      if (this.#closed) throw closedError();
      indices.forEach((index, position) => {
        const outcome = outcomes[position];
        const ended = this.#ended.has(index);
        if (outcome?.status === 'fulfilled') {
          this.#listings[index] = outcome.value;
          this.#ended.delete(index);
          if (ended) this.#report(new McpError(`watchMcpToolSet: ${this.#nameOf(index)} ended its change stream`));
          return;
        }
        const error: unknown = outcome?.reason;
        const closed = error instanceof ClientClosedError;
        // A closed client is not listed again; its stream ending was the close, not news.
        if (!closed) this.#failed.add(index);
        else this.#ended.delete(index);
        if (closed && ended) return;
        failure ??= { error };
        this.#report(error);
      });
      if (outcomes.some((outcome) => outcome.status === 'fulfilled')) {
        this.#tools = this.#build();
        try {
          this.#options.onChange?.(this.#tools);
        } catch (error) {
          this.#report(error);
        }
      }
    }
    this.#failures = this.#failed.size > 0 ? this.#failures + 1 : 0;
    if (failure) throw failure.error;
    return this.#tools;
  }

  /** While a client's listing has failed, lists it again after a delay that doubles, up to `maxMs`. */
  #scheduleRetry(): void {
    if (this.#closed || this.#failed.size === 0 || this.#retry !== undefined) return;
    const firstMs = this.#options.retryMs?.firstMs ?? RELIST_RETRY_MS.firstMs;
    const maxMs = this.#options.retryMs?.maxMs ?? RELIST_RETRY_MS.maxMs;
    // NaN (an option that is no number) waits the default; past the longest wait a timer has, that wait.
    const delay = timerDelay(Math.min(firstMs * 2 ** Math.max(0, this.#failures - 1), maxMs), {
      fallback: RELIST_RETRY_MS.firstMs,
    });
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#relist().catch(() => {});
    }, delay);
  }

  #nameOf(index: number): string {
    return this.#recipe.names[index] ?? `client ${index}`;
  }

  /** The set for the current listings, each tool under the name it had; tells `onWarning` what is new. */
  #build(): ToolSet {
    const seen = new Set(this.#catalogue?.warnings);
    const built = buildToolSet(this.#recipe, this.#listings, this.#catalogue);
    this.#catalogue = built.catalogue;
    for (const warning of new Set(built.catalogue.warnings)) {
      if (seen.has(warning)) continue;
      try {
        this.#options.onWarning?.(warning);
      } catch (error) {
        this.#report(error);
      }
    }
    return built.tools;
  }

  /** Tells `onError`, unless closed; an `onError` that throws is ignored. */
  #report(error: unknown): void {
    if (this.#closed) return;
    try {
      this.#options.onError?.(error);
    } catch {
      // Nowhere left to report it: reporting it as a rejection would crash the app.
    }
  }
}

import type { Client } from '../client/client.js';
import type { Subscription } from '../client/listen/subscription.js';
import type { Prompt } from '../protocol/prompts.js';
import type { Resource } from '../protocol/resources.js';
import type { Tool } from '../protocol/tools.js';
import { MAX_TIMER, timerDelay } from '../util/timers.js';
import type { ListName } from './connection-state.js';
import { failureKind } from './failure-kind.js';

/** The items of each list. */
export interface ListItems {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
}

/** Where the lists go: each refresh, each failure to list, and a drop seen while listing. */
export interface ListsHost {
  /** A list was read: `items` is now the whole list. A successful request, so progress too. */
  listed<L extends ListName>(list: L, items: ListItems[L]): void;
  /** Listing failed in a way that leaves the connection up (a refusal, a bad page): the old items stay. */
  failed(list: ListName, error: Error): void;
  /** Listing failed because the server went away: the connection reconnects. */
  dropped(error: Error): void;
}

/**
 * How long, in ms, a connection's first listing waits for the server to
 * acknowledge the 2026-07-28 `subscriptions/listen` stream (2 s). In time, one
 * listing serves, from the client's cache when the server allows it. Later, the
 * lists are read at once and again when the acknowledgement comes, since a
 * change in between reaches no stream. A fixed bound, not an option: a server
 * acknowledges within a round trip.
 */
export const ACKNOWLEDGEMENT_WAIT = 2000;

const LIST_OF: Readonly<Record<string, ListName>> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

/**
 * Keeps one client's lists current: a `listen()` subscription for their
 * `list_changed` notifications (either era), and a new listing after each.
 * Lists the server did not declare are empty and never asked for. Listings of
 * one list never overlap: a change during one is listed once more after it.
 */
export class KeptLists {
  readonly #client: Client;
  readonly #lists: readonly ListName[];
  readonly #host: ListsHost;
  #subscription: Subscription | undefined;
  readonly #running = new Map<ListName, Promise<void>>();
  readonly #again = new Set<ListName>();
  #closed = false;

  constructor(client: Client, wanted: { readonly prompts?: boolean; readonly resources?: boolean }, host: ListsHost) {
    this.#client = client;
    const capabilities = client.serverCapabilities ?? {};
    const lists: ListName[] = ['tools'];
    if (wanted.prompts) lists.push('prompts');
    if (wanted.resources) lists.push('resources');
    this.#lists = lists.filter((list) => capabilities[list] !== undefined);
    this.#host = host;
  }

  /**
   * Subscribes, then lists everything once. Rejects only when the server went
   * away meanwhile (the connection attempt failed); other failures go to the host.
   */
  async start(signal: AbortSignal): Promise<void> {
    const lists = this.#lists;
    /** Whether a listing now hears every change after it: the lists may be read from the client's cache then. */
    let heard = true;
    if (lists.length > 0) {
      try {
        const subscription = await this.#client.listen({
          toolsListChanged: lists.includes('tools'),
          promptsListChanged: lists.includes('prompts'),
          resourcesListChanged: lists.includes('resources'),
        });
        this.#subscription = subscription;
        void this.#follow(subscription);
        // A 2026-07-28 stream hears changes only once the server acknowledged it: a listing read before
        // that could miss a change, so the first listing waits for the acknowledgement, briefly.
        if (this.#client.era === 'modern') heard = await acknowledgedWithin(subscription, signal);
        if (!heard) {
          // Too late: the lists are read at once, past the client's cache, and once more when it comes.
          void subscription.acknowledged.then(() => {
            for (const list of lists) this.#refresh(list);
          });
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (failureKind(error) === 'drop') throw error;
        // Without change notifications the lists are still read once.
        this.#host.failed(lists[0] as ListName, asError(error));
      }
    }
    for (const list of lists) {
      // Held as the list's running listing, so a change heard meanwhile lists it once more after.
      const first = this.#list(list, signal, true, heard);
      this.#hold(list, first);
      await first;
    }
  }

  /** Stops following changes. */
  close(): void {
    this.#closed = true;
    void this.#subscription?.close().catch(() => {});
  }

  async #follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        const list = LIST_OF[event.method];
        if (list) this.#refresh(list);
      }
    } catch (error) {
      // A 2026-07-28 stream that broke after every reopen: the server is gone.
      if (!this.#closed) this.#host.dropped(asError(error));
    }
  }

  /** Lists `list` again, after the listing under way if there is one. */
  #refresh(list: ListName): void {
    if (this.#closed) return;
    if (this.#running.has(list)) {
      this.#again.add(list);
      return;
    }
    this.#hold(list, this.#list(list, undefined, false));
  }

  /** Marks `listing` as the one under way for `list`; a refresh asked for meanwhile runs after it. */
  #hold(list: ListName, listing: Promise<void>): void {
    const settled = listing.then(
      () => {},
      () => {},
    );
    this.#running.set(
      list,
      settled.finally(() => {
        this.#running.delete(list);
        if (this.#again.delete(list)) this.#refresh(list);
      }),
    );
  }

  /**
   * One listing; a drop is thrown when `first` (the attempt fails), reported
   * otherwise. Not `cached`: the server is asked, and its answer is not kept in
   * the client's cache, where it could stand for a change the stream missed.
   */
  async #list(list: ListName, signal: AbortSignal | undefined, first: boolean, cached = true): Promise<void> {
    // The first listing is part of a connection attempt, which its own deadline bounds as a whole.
    const options = {
      ...(signal && { signal, timeout: MAX_TIMER, maxTotalTimeout: 0 }),
      ...(!cached && { cache: false }),
    };
    try {
      const client = this.#client;
      if (list === 'tools') this.#host.listed(list, await client.listTools(options));
      else if (list === 'prompts') this.#host.listed(list, await client.listPrompts(options));
      else this.#host.listed(list, await client.listResources(options));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (this.#closed) return;
      if (failureKind(error) !== 'drop') this.#host.failed(list, asError(error));
      else if (first) throw error;
      else this.#host.dropped(asError(error));
    }
  }
}

/**
 * Waits for `subscription`'s acknowledgement at most {@link ACKNOWLEDGEMENT_WAIT}
 * ms: true when it came, false when the wait ran out. Rejects with `signal`'s
 * reason when the attempt ends first.
 */
async function acknowledgedWithin(subscription: Subscription, signal: AbortSignal): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<boolean>((resolve, reject) => {
      timer = setTimeout(() => resolve(false), timerDelay(ACKNOWLEDGEMENT_WAIT));
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      void subscription.acknowledged.then(() => resolve(true));
    });
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

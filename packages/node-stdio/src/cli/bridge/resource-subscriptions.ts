import { type Client, ErrorCode, RpcError, type Subscription } from '@mcp/core';
import { holdSubscription } from './held-subscription.js';

/**
 * Resources a local client may have subscribed at once on a 2026-07-28 remote.
 * Each is one `subscriptions/listen` stream held open (an HTTP response the
 * remote keeps), outside `--max-in-flight`; past this, `resources/subscribe`
 * is refused with -32603 (`data.limit` "maxSubscriptions").
 */
export const MAX_RESOURCE_SUBSCRIPTIONS = 32;

/** One subscribed URI: its stream, once the remote agreed to it. */
interface Entry {
  opened: Promise<Subscription>;
}

/** What the subscriptions need from the bridge. */
export interface ResourceSubscriptionsOptions {
  /** The longest wait for the remote's acknowledgement, in ms. */
  readonly ackTimeoutMs: number;
  /** A subscription that broke after its acknowledgement, for stderr. */
  readonly onBroken: (uri: string, error: unknown) => void;
}

/**
 * `resources/subscribe` for a 2026-07-28 remote, which has none: one listen
 * stream per subscribed URI. The URI is taken before anything is awaited, so
 * two subscribes to it at once share one stream, and an unsubscribe meanwhile
 * closes it; a subscribe succeeds only once the remote acknowledged a filter
 * naming the URI, and one that failed (refused, ended, timed out) or later
 * ended for good is forgotten, so the next subscribe tries again.
 */
export class ResourceSubscriptions {
  readonly #options: ResourceSubscriptionsOptions;
  /** By URI: the stream being opened, or open. */
  readonly #entries = new Map<string, Entry>();

  constructor(options: ResourceSubscriptionsOptions) {
    this.#options = options;
  }

  async subscribe(client: Client, uri: string, signal?: AbortSignal): Promise<void> {
    const existing = this.#entries.get(uri);
    if (existing) {
      await existing.opened;
      return;
    }
    if (this.#entries.size >= MAX_RESOURCE_SUBSCRIPTIONS) {
      throw new RpcError(
        ErrorCode.InternalError,
        `bridge: ${MAX_RESOURCE_SUBSCRIPTIONS} resources are already subscribed; unsubscribe one first`,
        { limit: 'maxSubscriptions', value: MAX_RESOURCE_SUBSCRIPTIONS },
      );
    }
    // The entry exists before anything is awaited, so its stream can tell, when it ends, whether it still stands for `uri`.
    const entry = {} as Entry;
    entry.opened = this.#open(client, uri, entry, signal);
    this.#entries.set(uri, entry);
    entry.opened.catch(() => this.#forget(uri, entry));
    await entry.opened;
  }

  async unsubscribe(uri: string): Promise<void> {
    const entry = this.#entries.get(uri);
    if (!entry) return;
    this.#entries.delete(uri);
    await (await entry.opened.catch(() => undefined))?.close();
  }

  /** Closes every stream (the bridge is stopping). */
  async close(): Promise<void> {
    const entries = [...this.#entries.keys()];
    await Promise.allSettled(entries.map((uri) => this.unsubscribe(uri)));
  }

  get size(): number {
    return this.#entries.size;
  }

  async #open(client: Client, uri: string, entry: Entry, signal: AbortSignal | undefined): Promise<Subscription> {
    const subscription = await client.listen({ resources: [uri] });
    let agreed = false;
    try {
      const granted = await holdSubscription(subscription, {
        timeoutMs: this.#options.ackTimeoutMs,
        ...(signal && { signal }),
        onEnd: (error) => {
          // Ended for good after it was agreed: gone, so the next subscribe opens a new one.
          if (agreed && this.#forget(uri, entry) && error !== undefined) this.#options.onBroken(uri, error);
        },
      });
      if (!granted.resources?.includes(uri)) {
        throw new RpcError(
          ErrorCode.InternalError,
          `bridge: the remote server did not agree to send updates of ${uri}`,
          {
            error: 'SubscriptionRefused',
          },
        );
      }
      agreed = true;
      return subscription;
    } catch (error) {
      await subscription.close();
      throw error;
    }
  }

  /** Drops `uri` if `entry` still stands for it; true when it did. */
  #forget(uri: string, entry: Entry): boolean {
    if (this.#entries.get(uri) !== entry) return false;
    this.#entries.delete(uri);
    return true;
  }
}

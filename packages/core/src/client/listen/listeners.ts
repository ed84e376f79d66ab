import * as v from 'valibot';
import { LimitError } from '../../errors/limit-error.js';
import type { ServerCapabilities } from '../../protocol/capabilities.js';
import { isRequestId, type RequestId } from '../../protocol/jsonrpc.js';
import { META_SUBSCRIPTION_ID } from '../../protocol/meta.js';
import { SubscriptionFilterSchema } from '../../protocol/subscriptions.js';
import { backoffDelay, sleep } from '../../util/backoff.js';
import { type ClientOptions, DEFAULT_MAX_QUEUED_EVENTS } from '../options.js';
import type { RpcChannel } from '../rpc/rpc-channel.js';
import { type ListenEvent, type ListenFilter, type QueueBound, Subscription, wants } from './subscription.js';

/**
 * Times a modern listen stream is reopened after it broke, fixed (not an
 * option): when it breaks once more the subscription ends with
 * `LimitError('maxListenReopens', 5)`, the last failure as cause.
 */
const MAX_LISTEN_REOPENS = 5;

/** Sends one `subscriptions/listen` and resolves when the server ends it. */
export type ListenRequest = (
  filter: Record<string, unknown>,
  signal: AbortSignal,
  onRequestId: (id: RequestId) => void,
) => Promise<unknown>;

/**
 * The open subscriptions of a client, and where each notification goes.
 * Legacy (2024-11-05 … 2025-11-25): change notifications arrive unrequested and
 * resource updates after `resources/subscribe`; the acknowledgement is what the
 * server's capabilities promise. Modern (2026-07-28): one `subscriptions/listen`
 * per subscription, its notifications routed by `subscriptionId`.
 */
export class Listeners {
  readonly #legacy = new Map<Subscription, ListenFilter>();
  readonly #modern = new Map<RequestId, Subscription>();
  /** What stops each 2026-07-28 listen loop still running, waiting to reopen included. */
  readonly #listening = new Set<AbortController>();
  readonly #bound: QueueBound;
  readonly #channel: Pick<RpcChannel, 'finish'>;

  constructor(options: Pick<ClientOptions, 'limits' | 'onError'>, channel: Pick<RpcChannel, 'finish'>) {
    this.#channel = channel;
    this.#bound = {
      maxQueued: options.limits?.maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS,
      onError: (error) => options.onError?.(error),
    };
  }

  /**
   * Hands a notification to every subscription that wants it. A
   * `notifications/cancelled` naming a listen request is the server ending that
   * subscription, as a result to it would be (2026-07-28 § subscriptions/listen,
   * stdio): the request ends without a cancel sent back, and so does `for await`.
   */
  route(method: string, params: ListenEvent['params']): void {
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (isRequestId(requestId) && this.#modern.has(requestId)) this.#channel.finish(requestId);
      return;
    }
    const meta = params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[META_SUBSCRIPTION_ID];
    const modern = typeof id === 'string' || typeof id === 'number' ? this.#modern.get(id) : undefined;
    if (modern) {
      if (method === 'notifications/subscriptions/acknowledged') {
        const granted = v.safeParse(SubscriptionFilterSchema, params?.notifications);
        modern.acknowledge(granted.success ? fromWire(granted.output) : {});
      } else {
        modern.deliver({ method, params });
      }
      return;
    }
    for (const [subscription, filter] of this.#legacy) {
      if (wants(filter, method, params)) subscription.deliver({ method, params });
    }
  }

  async openLegacy(
    filter: ListenFilter,
    capabilities: ServerCapabilities | undefined,
    subscribe: (uri: string) => Promise<void>,
    unsubscribe: (uri: string) => Promise<void>,
  ): Promise<Subscription> {
    const granted: ListenFilter = {
      toolsListChanged: filter.toolsListChanged === true && capabilities?.tools?.listChanged === true,
      promptsListChanged: filter.promptsListChanged === true && capabilities?.prompts?.listChanged === true,
      resourcesListChanged: filter.resourcesListChanged === true && capabilities?.resources?.listChanged === true,
      resources: capabilities?.resources?.subscribe === true ? [...(filter.resources ?? [])] : [],
    };
    const subscription = new Subscription(async () => {
      this.#legacy.delete(subscription);
      await Promise.allSettled((granted.resources ?? []).map(unsubscribe));
    }, this.#bound);
    for (const uri of granted.resources ?? []) await subscribe(uri);
    this.#legacy.set(subscription, granted);
    subscription.acknowledge(granted);
    return subscription;
  }

  openModern(filter: ListenFilter, listen: ListenRequest): Subscription {
    const controller = new AbortController();
    this.#listening.add(controller);
    const ids: RequestId[] = [];
    // A listen request that is over routes nothing more: its id goes, so a subscription the
    // server ended (or that reopened) is not held here until the client closes.
    const forget = () => {
      for (const id of ids.splice(0)) this.#modern.delete(id);
    };
    const subscription = new Subscription(async () => {
      controller.abort();
      forget();
    }, this.#bound);
    const wire = toWire(filter);
    void (async () => {
      for (let reopens = 0; !controller.signal.aborted; ) {
        try {
          await listen(wire, controller.signal, (id) => {
            ids.push(id);
            this.#modern.set(id, subscription);
          });
          subscription.end(); // the server ended it gracefully
          return;
        } catch (error) {
          if (controller.signal.aborted) return;
          if (++reopens > MAX_LISTEN_REOPENS) {
            const message = 'subscriptions/listen: the stream broke after every reopen';
            subscription.end(new LimitError('maxListenReopens', MAX_LISTEN_REOPENS, message, { cause: error }));
            return;
          }
          await sleep(backoffDelay(reopens, 250, 5000), controller.signal).catch(() => {});
        } finally {
          forget();
        }
      }
    })().finally(() => {
      // However the loop ended (the server, the app, the client's close), the iteration ends too.
      subscription.end();
      this.#listening.delete(controller);
    });
    return subscription;
  }

  /**
   * Ends every subscription (the client closed), and stops each 2026-07-28
   * listen loop: one waiting to reopen must not reopen on a closed client.
   */
  closeAll(): void {
    for (const controller of this.#listening) controller.abort();
    for (const subscription of [...this.#legacy.keys(), ...this.#modern.values()]) subscription.end();
    this.#legacy.clear();
    this.#modern.clear();
  }
}

function toWire(filter: ListenFilter): Record<string, unknown> {
  const { resources, ...flags } = filter;
  return { ...flags, ...(resources && resources.length > 0 && { resourceSubscriptions: [...resources] }) };
}

function fromWire(filter: v.InferOutput<typeof SubscriptionFilterSchema>): ListenFilter {
  const { resourceSubscriptions, toolsListChanged, promptsListChanged, resourcesListChanged } = filter;
  return {
    ...(toolsListChanged !== undefined && { toolsListChanged }),
    ...(promptsListChanged !== undefined && { promptsListChanged }),
    ...(resourcesListChanged !== undefined && { resourcesListChanged }),
    ...(resourceSubscriptions && { resources: resourceSubscriptions }),
  };
}

import { LimitError } from '../../errors/limit-error.js';
import { MessageQueue } from '../../transport/message-queue.js';
import { asyncDispose } from '../../util/dispose.js';

/** What to hear about; `resources` lists the URIs whose updates to receive. */
export interface ListenFilter {
  /** Hear when the server's tools change (`notifications/tools/list_changed`). */
  readonly toolsListChanged?: boolean;
  /** Hear when the server's prompts change. */
  readonly promptsListChanged?: boolean;
  /** Hear when the server's resource list changes. */
  readonly resourcesListChanged?: boolean;
  /** Resource URIs whose updates to receive (`notifications/resources/updated`, sub-resources included). */
  readonly resources?: readonly string[];
}

/** One change notification delivered to a subscription. */
export interface ListenEvent {
  /** The notification's method, e.g. `notifications/tools/list_changed`. */
  readonly method: string;
  /** Its params as the server sent them (`uri` for a resource update). */
  readonly params: Readonly<Record<string, unknown>> | undefined;
}

const LIST_CHANGED: Readonly<Record<string, keyof ListenFilter>> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};

/** Whether `filter` asked for this notification (a sub-resource of a listed URI counts). */
export function wants(filter: ListenFilter, method: string, params: ListenEvent['params']): boolean {
  const flag = LIST_CHANGED[method];
  if (flag) return filter[flag] === true;
  if (method !== 'notifications/resources/updated' || typeof params?.uri !== 'string') return false;
  const uri = params.uri;
  return (filter.resources ?? []).some(
    (listed) => uri === listed || uri.startsWith(listed.endsWith('/') ? listed : `${listed}/`),
  );
}

/** @internal How many events a subscription holds unread, and where it reports dropping one. */
export interface QueueBound {
  /** limits.maxQueuedEvents. */
  readonly maxQueued: number;
  readonly onError: (error: Error) => void;
}

/**
 * A stream of change notifications: iterate it with `for await`, close it when
 * done. `acknowledged` resolves with what the server agreed to send, which may
 * be less than asked. The same object serves both eras.
 *
 * Events wait here until read, at most `limits.maxQueuedEvents` of them: a
 * server flooding a subscription nobody reads (or reads slowly) must not grow
 * memory without end. Past the bound new events are dropped, and the first drop
 * is reported to `onError`; once the reader has caught up (nothing left unread),
 * events queue again and the next drop is reported again.
 */
export class Subscription implements AsyncIterable<ListenEvent>, AsyncDisposable {
  /** Resolves with what the server agreed to send, which may be less than asked. */
  readonly acknowledged: Promise<ListenFilter>;
  readonly #events = new MessageQueue<ListenEvent>();
  readonly #onClose: () => Promise<void>;
  readonly #bound: QueueBound;
  /** Delivered and not yet read. */
  #unread = 0;
  /** Events are being dropped, and that was reported. */
  #dropping = false;
  #acknowledge!: (filter: ListenFilter) => void;
  #closing: Promise<void> | undefined;

  /** @internal Made by `Client.listen()`. */
  constructor(onClose: () => Promise<void>, bound: QueueBound) {
    this.#onClose = onClose;
    this.#bound = bound;
    this.acknowledged = new Promise((resolve) => {
      this.#acknowledge = resolve;
    });
    // Nobody may await it; a failure is seen through iteration instead.
    this.acknowledged.catch(() => {});
  }

  /** @internal */
  acknowledge(filter: ListenFilter): void {
    this.#acknowledge(filter);
  }

  /** @internal */
  deliver(event: ListenEvent): void {
    if (this.#events.closed) return;
    const { maxQueued, onError } = this.#bound;
    if (this.#unread >= maxQueued) {
      if (this.#dropping) return;
      this.#dropping = true;
      onError(
        new LimitError(
          'limits.maxQueuedEvents',
          maxQueued,
          `listen(): dropped ${event.method}: ${maxQueued} events wait unread in this subscription; more are dropped until it is read`,
        ),
      );
      return;
    }
    this.#unread++;
    this.#events.push(event);
  }

  /** @internal The subscription ended (`error` when it broke for good). */
  end(error?: Error): void {
    if (error) this.#events.fail(error);
    else this.#events.end();
  }

  /** True once the subscription ended: closed by the app, the client, or for good by an error. */
  get closed(): boolean {
    return this.#events.closed;
  }

  /** Ends the subscription (iteration stops) and stops listening on the server. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#events.end();
      await this.#onClose();
    })();
    return this.#closing;
  }

  /** The events, in order: `for await (const event of subscription)`. */
  [Symbol.asyncIterator](): AsyncIterator<ListenEvent> {
    const events = this.#events[Symbol.asyncIterator]();
    return {
      next: () => events.next().then(this.#read),
      return: (value?: unknown) => events.return?.(value) ?? Promise.resolve({ value: undefined, done: true }),
    };
  }

  readonly #read = (result: IteratorResult<ListenEvent>): IteratorResult<ListenEvent> => {
    if (!result.done && --this.#unread === 0) this.#dropping = false;
    return result;
  };

  /** `await using subscription = …` closes it at the end of the scope. */
  [asyncDispose](): Promise<void> {
    return this.close();
  }
}

import { MessageQueue } from '../transport/message-queue.js';

/** `Symbol.asyncDispose` where the runtime has it, else the well-known registry symbol. */
const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/** What to hear about; `resources` lists the URIs whose updates to receive. */
export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resources?: readonly string[];
}

/** One change notification delivered to a subscription. */
export interface ListenEvent {
  readonly method: string;
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

/**
 * A stream of change notifications: iterate it with `for await`, close it when
 * done. `acknowledged` resolves with what the server agreed to send, which may
 * be less than asked. The same object serves both eras.
 */
export class Subscription implements AsyncIterable<ListenEvent>, AsyncDisposable {
  readonly acknowledged: Promise<ListenFilter>;
  readonly #events = new MessageQueue<ListenEvent>();
  readonly #onClose: () => Promise<void>;
  #acknowledge!: (filter: ListenFilter) => void;
  #closing: Promise<void> | undefined;

  /** @internal Made by `Client.listen()`. */
  constructor(onClose: () => Promise<void>) {
    this.#onClose = onClose;
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
    this.#events.push(event);
  }

  /** @internal The subscription ended (`error` when it broke for good). */
  end(error?: Error): void {
    if (error) this.#events.fail(error);
    else this.#events.end();
  }

  get closed(): boolean {
    return this.#events.closed;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#events.end();
      await this.#onClose();
    })();
    return this.#closing;
  }

  [Symbol.asyncIterator](): AsyncIterator<ListenEvent> {
    return this.#events[Symbol.asyncIterator]();
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Wraps a server transport so every inbound message with a `method` (request
 * or notification) is counted before the SDK sees it. The v2 stdio entry owns
 * `subscriptions/listen` and `server/discover` routing itself, so counting at
 * the wire is the only place that sees every method.
 * @template {{ onmessage?: Function, onclose?: Function, onerror?: Function }} T
 * @param {T & { start(): Promise<void>, close(): Promise<void>, send(message: any, options?: any): Promise<void> }} inner
 * @param {(method: string) => void} count
 */
export function countingTransport(inner, count) {
  /** @type {Function | undefined} */
  let onmessage;
  return {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (/** @type {any} */ message, /** @type {any} */ options) => inner.send(message, options),
    get onmessage() {
      return onmessage;
    },
    set onmessage(handler) {
      onmessage = handler;
      inner.onmessage =
        handler &&
        ((/** @type {any} */ message, /** @type {any} */ extra) => {
          if (typeof message?.method === 'string') count(message.method);
          handler(message, extra);
        });
    },
    get onclose() {
      return inner.onclose;
    },
    set onclose(handler) {
      inner.onclose = handler;
    },
    get onerror() {
      return inner.onerror;
    },
    set onerror(handler) {
      inner.onerror = handler;
    },
  };
}

/**
 * Stream surgery on the SSE bodies the inner MCP server sends, at event
 * granularity: the fault actions cut, extend or poison a real stream rather
 * than invent one, so event ids stay the server's and resumption stays real.
 */

const encoder = new TextEncoder();

/**
 * The raw events of an SSE body, each with its terminating blank line.
 * Comment-only blocks (`: keepalive`) are yielded too, flagged.
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<{ text: string, isEvent: boolean }>}
 */
export async function* sseBlocks(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        yield {
          text: `${block}\n\n`,
          isEvent: block.split(/\r?\n/).some((line) => /^(data|id|event)(:|$)/.test(line)),
        };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The JSON-RPC messages of SSE `message` events (data lines joined), skipping
 * empty data such as the priming event.
 * @param {string} block
 * @returns {unknown | undefined}
 */
export function messageOf(block) {
  const data = block
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (data.trim() === '') return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * A stream of SSE text built by an async producer. A producer that throws
 * errors the stream, which the Node adapter turns into a connection reset.
 * Once the reader cancels, writes are dropped and `cancelled` aborts.
 * @param {(write: (text: string) => void, cancelled: AbortSignal) => Promise<void>} produce
 * @returns {ReadableStream<Uint8Array>}
 */
export function textStream(produce) {
  const cancel = new AbortController();
  return new ReadableStream({
    start(controller) {
      const write = (/** @type {string} */ text) => {
        if (!cancel.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      produce(write, cancel.signal).then(
        () => !cancel.signal.aborted && controller.close(),
        (error) => !cancel.signal.aborted && controller.error(error),
      );
    },
    cancel: () => cancel.abort(),
  });
}

/**
 * The first `count` events of `body` (comments pass through free), then the
 * end of the stream: clean (`end`) or a dropped connection (`reset`).
 * @param {ReadableStream<Uint8Array>} body
 * @param {number} count
 * @param {'end' | 'reset'} how
 */
export function cutAfterEvents(body, count, how) {
  return textStream(async (write) => {
    let seen = 0;
    if (count > 0) {
      for await (const block of sseBlocks(body)) {
        write(block.text);
        if (block.isEvent) seen += 1;
        if (seen >= count) break;
      }
    } else {
      await body.cancel();
    }
    if (how === 'reset') throw new Error('SSE stream dropped by the fault script');
  });
}

/**
 * Every event of `body`, then, once the server ended it, a comment every
 * `everyMs` until the client goes away: a stream that never closes.
 * @param {ReadableStream<Uint8Array>} body
 * @param {number} everyMs
 * @param {AbortSignal} signal
 */
export function holdOpen(body, everyMs, signal) {
  return textStream(async (write, cancelled) => {
    const stopped = AbortSignal.any([signal, cancelled]);
    for await (const block of sseBlocks(body)) write(block.text);
    await new Promise((resolve) => {
      const timer = setInterval(() => write(': held open by the fault script\n\n'), everyMs);
      const stop = () => {
        clearInterval(timer);
        resolve(undefined);
      };
      if (stopped.aborted) stop();
      else stopped.addEventListener('abort', stop, { once: true });
    });
  });
}

/**
 * The server's stream with one `message` event of invalid JSON in front.
 * @param {ReadableStream<Uint8Array>} body
 */
export function withBadEventFirst(body) {
  return textStream(async (write) => {
    write('event: message\ndata: {"jsonrpc": "2.0", "method": \n\n');
    for await (const block of sseBlocks(body)) write(block.text);
  });
}

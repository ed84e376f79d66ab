// Reading a request body without trusting its size or its syntax.

/**
 * The body as text, or undefined once it passes `limit` bytes (the rest is dropped as
 * {@link discardBody} drops a body: read up to `limit` bytes more, cancelled past that).
 * @param {Request} request
 * @param {number} limit
 */
export async function readCapped(request, limit) {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await dropAtMost(reader, limit);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Reads and drops a request's body, up to `limit` bytes; past that, cancels the rest. A Durable Object
 * answers a request the Worker forwarded while workerd still pumps its body in: answering before
 * the body is read to its end makes that pump fail (workerd logs "Can't read from request stream
 * after response has been sent", and a client still sending sees its connection reset). Reading
 * stops at `limit`, so a refusal costs no more reading than a request taken.
 * @param {Request} request
 * @param {number} limit
 */
export async function discardBody(request, limit) {
  if (request.body === null || request.bodyUsed) return;
  await dropAtMost(request.body.getReader(), limit);
}

/**
 * Reads and drops up to `limit` bytes more, then cancels whatever is left.
 * @param {ReadableStreamDefaultReader<Uint8Array>} reader
 * @param {number} limit
 */
async function dropAtMost(reader, limit) {
  let size = 0;
  while (size <= limit) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
  }
  await reader.cancel();
}

/**
 * The parsed JSON, or undefined when `text` is not JSON.
 * @param {string} text
 */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

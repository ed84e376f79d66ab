// Reading a request body without trusting its size or its syntax.

/**
 * The body as text, or undefined once it passes `limit` bytes (the rest is not read).
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
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
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

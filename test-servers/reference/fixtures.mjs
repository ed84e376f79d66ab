/**
 * Binary fixtures the reference servers hand out. They are real, decodable
 * files (checked with `file` and a CRC walk when generated) so clients and
 * demos can render or save them, yet small enough to read in a test failure.
 */

/** A 1×1 RGB PNG (one orange pixel, #ff6600), 69 bytes, base64. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4n8YAAAPNAWbDbP9aAAAAAElFTkSuQmCC';

/** MIME type of {@link PNG_BASE64}. */
export const PNG_MIME_TYPE = 'image/png';

/** A PCM WAV: mono, 8 kHz, 8-bit, 16 samples of one sine period; 60 bytes, base64. */
export const WAV_BASE64 = 'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAsNr1//XasIBQJgsBCyZQ';

/** MIME type of {@link WAV_BASE64}. */
export const WAV_MIME_TYPE = 'audio/wav';

/**
 * The bytes of static binary resource `n`: `[n, n+1, …, n+7]`. Consecutive
 * values make an off-by-one or a wrong decode visible at a glance.
 * @param {number} n resource number, 1-based
 * @returns {Uint8Array}
 */
export function binaryResourceBytes(n) {
  return Uint8Array.from({ length: 8 }, (_, i) => n + i);
}

/**
 * Standard base64 of some bytes, without Node's Buffer so the data modules
 * stay runtime-neutral (workerd, browsers).
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toBase64(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The eleven tools every reference server lists first, in this order, in every
 * era and profile: what a client must see. Tests compare what the servers
 * actually list against it.
 */
export const REFERENCE_TOOL_NAMES = Object.freeze([
  'echo',
  'add',
  'mixed-content',
  'fail',
  'slow',
  'sample',
  'elicit',
  'list-roots',
  'log',
  'touch-resource',
  'add-tool',
]);

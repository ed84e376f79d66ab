import { createRequestStateCodec } from '@modelcontextprotocol/server';

/**
 * Seals and opens the opaque `requestState` of the multi-round-trip tools
 * (2026-07-28, basic/patterns/mrtr): the client must echo it byte for byte, so
 * it is signed (HMAC-SHA256, the v2 SDK's `createRequestStateCodec`) and every
 * seal carries a fresh random nonce. A state that comes back altered, expired
 * or minted by another server process fails to open.
 * @typedef {object} StateSealer
 * @property {(payload: Record<string, unknown>) => Promise<string>} seal
 * @property {(state: unknown) => Promise<Record<string, any> | undefined>} open
 *   the payload, or undefined when `state` is not one this sealer issued intact
 */

/**
 * A sealer with a random key of its own, so states never verify across
 * server processes (or across HTTP hubs).
 * @returns {StateSealer}
 */
export function createStateSealer() {
  const codec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });
  return {
    seal: (payload) => codec.mint({ ...payload, nonce: crypto.randomUUID() }),
    async open(state) {
      if (typeof state !== 'string') return undefined;
      try {
        return /** @type {Record<string, any>} */ (await codec.verify(state));
      } catch {
        return undefined;
      }
    },
  };
}

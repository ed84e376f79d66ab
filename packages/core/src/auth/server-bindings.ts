import * as v from 'valibot';
import { type OAuthStore, storeKeys } from './store.js';
import type { StoredKeys } from './stored-keys.js';

/** Which authorization server and resource an MCP endpoint was last authorized with (`server:<url>`). */
export const ServerBindingSchema = v.object({
  serverUrl: v.string(),
  issuer: v.string(),
  resource: v.string(),
  // No PRM: the 2025-03-26 flow, where missing AS metadata means default endpoints. A line comment, not a
  // doc comment: typedoc would read a doc comment twice through InferOutput and warn.
  legacy: v.boolean(),
});
export type ServerBinding = v.InferOutput<typeof ServerBindingSchema>;

/** The part of a URL that names an MCP endpoint: origin and path (a session query is not part of it). */
export function endpointKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Remembers, per MCP endpoint, the issuer and resource its tokens are stored
 * under, so a request finds its token without discovery (after a page reload
 * too). A request to another path of a known origin (the HTTP+SSE message
 * endpoint) uses that origin's binding: tokens never leave their origin anyway.
 */
export class ServerBindings {
  readonly #store: OAuthStore;
  readonly #keys: StoredKeys;
  readonly #known = new Map<string, ServerBinding>();

  constructor(store: OAuthStore, keys: StoredKeys) {
    this.#store = store;
    this.#keys = keys;
  }

  async get(url: URL): Promise<ServerBinding | undefined> {
    const key = endpointKey(url);
    const known = this.#known.get(key);
    if (known) return known;
    const parsed = v.safeParse(ServerBindingSchema, await this.#store.get(storeKeys.server(key)));
    if (parsed.success) {
      this.#known.set(key, parsed.output);
      return parsed.output;
    }
    let sameOrigin: ServerBinding | undefined;
    for (const binding of this.#known.values())
      if (new URL(binding.serverUrl).origin === url.origin) sameOrigin = binding;
    return sameOrigin;
  }

  async set(binding: ServerBinding): Promise<void> {
    const key = endpointKey(new URL(binding.serverUrl));
    this.#known.set(key, binding);
    await this.#keys.set(storeKeys.server(key), binding);
  }

  /** Forgets the bindings held in memory and returns them (sign-out deletes what they name). */
  forget(): ServerBinding[] {
    const known = [...this.#known.values()];
    this.#known.clear();
    return known;
  }
}

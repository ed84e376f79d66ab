import type { CapabilityPath } from './capabilities.js';
import type { ServerIdentity } from './eras/era.js';
import type { CallBounds } from './rpc/rpc-channel.js';

/**
 * What an on-demand module (the catalogue, tasks) asks of the Session that loads
 * it, structurally, so it never imports the Session: its one request path (gated
 * by `capability`, cached, through the era, renewed once) and what the server is.
 */
export interface SessionRequests {
  readonly server: ServerIdentity | undefined;
  request<T>(
    method: string,
    capability: CapabilityPath | undefined,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options?: CallBounds,
  ): Promise<T>;
}

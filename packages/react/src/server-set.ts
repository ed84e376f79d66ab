import type { Servers, ServersSnapshot } from '@mcp/core/connections';
import { createContext } from 'react';

/**
 * The set a provider holds, as its hooks see it: the app's own `Servers`, or
 * one the provider makes on the client and closes when it goes.
 */
export interface ServerSet {
  /** The set, once there is one: never during server rendering, nor before the provider's first effect. */
  readonly current: Servers | undefined;
  /** Calls `listener` after each change of the set's snapshot, and when the set itself is made or closed. */
  readonly subscribe: (listener: () => void) => () => void;
  /** The set, as soon as there is one (an `add()` from a child's first effect runs before the provider's). */
  whenMade(): Promise<Servers>;
}

/** The nearest provider's set; null outside any provider. */
export const ServerSetContext = createContext<ServerSet | null>(null);

/** A set with no server, for server rendering and for the moments before the provider made its set. */
export const EMPTY_SET_SNAPSHOT: ServersSnapshot = Object.freeze({
  servers: Object.freeze([]),
  tools: Object.freeze([]),
  warnings: Object.freeze([]),
  loading: false,
  closed: false,
});

/** The app's own set as a {@link ServerSet}: there from the first render, never closed by the provider. */
export function givenSet(servers: Servers): ServerSet {
  return { current: servers, subscribe: servers.subscribe, whenMade: () => Promise.resolve(servers) };
}

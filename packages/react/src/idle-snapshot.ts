import type { ConnectionSnapshot } from '@mcp/core/connections';

const NONE: readonly never[] = Object.freeze([]);

/**
 * The snapshot of a server that is not connecting: during server rendering,
 * before the client made its connection, and for a name the set does not hold.
 * `idle`, with empty lists.
 */
export function idleSnapshot(name: string): ConnectionSnapshot {
  return Object.freeze({ name, state: Object.freeze({ status: 'idle' as const }), tools: NONE, pending: NONE });
}

/** The snapshot of a config the client could not make a connection of: `failed`, with the reason. */
export function failedSnapshot(name: string, error: Error): ConnectionSnapshot {
  return Object.freeze({
    name,
    state: Object.freeze({ status: 'failed' as const, error }),
    tools: NONE,
    pending: NONE,
  });
}

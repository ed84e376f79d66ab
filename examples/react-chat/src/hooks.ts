// TEMPORARY until @mcp/react lands: the same reads its hooks give.
import type { Connection, ConnectionSnapshot, Servers, ServersSnapshot } from '@mcp/core/connections';
import { createContext, useContext, useSyncExternalStore } from 'react';

export const ServersContext = createContext<Servers | undefined>(undefined);

export function useServerSet(): { servers: Servers; snapshot: ServersSnapshot } {
  const servers = useContext(ServersContext);
  if (!servers) throw new Error('no set');
  const snapshot = useSyncExternalStore(servers.subscribe, servers.getSnapshot);
  return { servers, snapshot };
}

export function useServer(name: string): {
  connection: Connection | undefined;
  snapshot: ConnectionSnapshot | undefined;
} {
  const { servers, snapshot } = useServerSet();
  return { connection: servers.get(name), snapshot: snapshot.servers.find((server) => server.name === name) };
}

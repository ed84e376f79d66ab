/**
 * The real servers the connection tests talk to: the HTTP test servers
 * (test-servers/http), started on a port that can be given again, so a test can
 * stop a server and bring it back where the connection looks for it; and the
 * recording proxy, which counts each JSON-RPC method at the server's door.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startHttpServers as startHttpServersJs } from '../../../../test-servers/http/serve.mjs';
import type { ConnectionEvent, ConnectionState } from '../../src/connections/index.js';

export { type Cable, startCable } from '../../../../test-servers/cable.mjs';
export { type RecordingProxy, startRecordingProxy } from '../../../../test-servers/recording-proxy.mjs';

/** The HTTP test servers of one start. */
export interface HttpServers {
  /** Base URL of the reference servers (`/stateful`, `/v2`, …). */
  readonly modes: string;
  /** Base URL of the fault server (`POST /faults`). */
  readonly faults: string;
  /** A URL where nothing listens. */
  readonly refused: string;
  close(): Promise<void>;
}

/** Starts the HTTP test servers; `port` puts the modes server on a port a stopped one used. */
export const startHttpServers: (options?: { port?: number }) => Promise<HttpServers> = startHttpServersJs;

/** Starts the HTTP test servers for the file (beforeAll) and stops them after it; the getter throws before then. */
export function useHttpServers(): () => HttpServers {
  let started: HttpServers | undefined;
  beforeAll(async () => {
    started = await startHttpServers();
  });
  afterAll(() => started?.close());
  return () => {
    if (!started) throw new Error('the HTTP test servers are not started yet');
    return started;
  };
}

/** Registers what stops something a test started; after each test they run, newest first, whatever happened. */
export function useCleanup(): (stop: () => Promise<unknown>) => void {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  });
  return (stop) => {
    stops.push(stop);
  };
}

/** The port of a URL. */
export function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** Creates a fault scenario on the fault server and returns its MCP endpoint and stats. */
export async function faultScenario(
  faults: string,
  script: unknown,
): Promise<{ mcp: string; stats(): Promise<{ methods: Record<string, number> }> }> {
  const response = await fetch(`${faults}/faults`, { method: 'POST', body: JSON.stringify(script) });
  if (response.status !== 201) throw new Error(`fault script refused: ${await response.text()}`);
  const created = (await response.json()) as { mcp: string; stats: string };
  return { mcp: created.mcp, stats: async () => (await fetch(created.stats)).json() };
}

/** A state as a short string for comparing sequences: `connecting#0`, `reconnecting#2`, `ready`. */
export function stateName(state: ConnectionState): string {
  return 'attempt' in state ? `${state.status}#${state.attempt}` : state.status;
}

/** The states an event log went through, in order, as {@link stateName} writes them. */
export function states(events: readonly ConnectionEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'state' ? [stateName(event.to)] : []));
}

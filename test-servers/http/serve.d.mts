/**
 * Types of the HTTP test servers (serve.mjs), for TypeScript tests anywhere in the repository. The
 * shapes are the ones test-servers/README.md documents ("HTTP servers", "Fault server").
 */

/** One request a fault scenario's MCP endpoint received. */
export interface SeenRequest {
  httpMethod: string;
  /** Path and query. */
  path: string;
  /** The JSON-RPC method, when the body had one. */
  method?: string;
  id?: string | number;
  /** Every request header, lower-case names. */
  headers: Record<string, string>;
  /** The index of the rule that acted on it, null when none did. */
  rule: number | null;
}

/** What a fault scenario saw. */
export interface ScenarioStats {
  requests: SeenRequest[];
  /** Requests per JSON-RPC method. */
  methods: Record<string, number>;
  /** `tools/call` requests that reached the server behind. */
  executions: number;
  /** Messages that reached the server behind, per method. */
  executed: Record<string, number>;
  redirected: Omit<SeenRequest, 'rule'>[];
  rules: { matched: number; applied: number }[];
  /** Sessions the server behind holds open. */
  sessions: number;
}

/** The fault server's control API, in process. */
export interface FaultHandler {
  /** Creates a scenario from a script (see the README); throws a TypeError for an invalid one. */
  createScenario(script?: unknown): { id: string; path: string };
  stats(id: string): ScenarioStats | undefined;
}

/** The HTTP test servers of one start. */
export interface HttpServers {
  /** Base URL of the reference servers (`/stateful`, `/v2`, …). */
  modes: string;
  /** Base URL of the fault server (`POST /faults`, `/faults/<id>/mcp`). */
  faults: string;
  /** The fault server's second origin. */
  other: string;
  /** A URL where nothing listens. */
  refused: string;
  faultHandler: FaultHandler;
  /** Ends sessions and held streams, then stops every listener. */
  close(): Promise<void>;
}

/** Starts the modes server and the fault server (on two origins) on 127.0.0.1; each port 0 (any) unless given. */
export function startHttpServers(options?: {
  port?: number;
  faultsPort?: number;
  otherPort?: number;
}): Promise<HttpServers>;

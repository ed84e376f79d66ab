/** Types of faults.js: the fault server's control API over plain `fetch`. */

/** A scenario's URLs: `mcp`, the MCP endpoint under the script, and `stats`, what the scenario saw. */
export interface FaultScenario {
  readonly id: string;
  readonly mcp: string;
  readonly stats: string;
}

/** Creates a fault scenario from `script` (test-servers/http/fault-script.mjs); throws unless the server made it. */
export function createFaultScenario(faultsUrl: string, script: Record<string, unknown>): Promise<FaultScenario>;

/** What the scenario behind `statsUrl` saw: requests with headers, per-method counts, executions. */
export function readFaultStats(statsUrl: string): Promise<Record<string, unknown>>;

/** One rule acting on the first `tools/call` only (`times: 1`). */
export function onFirstToolCall(action: Record<string, unknown>): Record<string, unknown>;

/**
 * The fault server's control API over plain `fetch`, so a scenario can script a
 * failure from any runtime, the browser included (the control API sends CORS
 * headers). See test-servers/README.md, "Fault server".
 */

/**
 * Creates a fault scenario from `script` and returns its URLs: `mcp`, the MCP
 * endpoint under the script, and `stats`, what the scenario saw.
 */
export async function createFaultScenario(faultsUrl, script) {
  const response = await fetch(`${faultsUrl}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(script),
  });
  if (response.status !== 201) {
    throw new Error(`POST ${faultsUrl}/faults answered ${response.status}: ${await response.text()}`);
  }
  return response.json();
}

/** What the scenario behind `statsUrl` saw: requests with headers, per-method counts, executions. */
export async function readFaultStats(statsUrl) {
  const response = await fetch(statsUrl);
  if (!response.ok) throw new Error(`GET ${statsUrl} answered ${response.status}`);
  return response.json();
}

/**
 * One rule acting on the first `tools/call` only (`times: 1`), so the call the
 * client repeats or resumes reaches the real server.
 */
export function onFirstToolCall(action) {
  return { match: { method: 'tools/call', times: 1 }, action };
}

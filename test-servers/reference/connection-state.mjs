import { initialTools } from './tools.mjs';

/**
 * The mutable state of one client connection: tools added at runtime,
 * subscriptions and log level live here, so every connection (a stdio process,
 * an HTTP session) starts from the documented initial state.
 * @typedef {object} ConnectionState
 * @property {import('./server-info.mjs').Profile} profile
 * @property {number} pageSize items per page of every list
 * @property {Map<string, import('./tool-context.mjs').ReferenceTool>} tools registered tools, in list order
 * @property {number} addedTools how many tools `add-tool` registered so far
 * @property {Set<string>} subscriptions URIs the client subscribed to
 * @property {string | undefined} logLevel the minimum set by `logging/setLevel`
 */

/**
 * @param {import('./server-info.mjs').Profile} profile
 * @param {number} pageSize
 * @returns {ConnectionState}
 */
export function createConnectionState(profile, pageSize) {
  return {
    profile,
    pageSize,
    tools: new Map(initialTools(profile).map((tool) => [tool.name, tool])),
    addedTools: 0,
    subscriptions: new Set(),
    logLevel: undefined,
  };
}

/**
 * Registers the next runtime tool (`add-tool`), numbering them per connection.
 * @param {ConnectionState} state
 * @param {(n: number) => import('./tool-context.mjs').ReferenceTool} makeTool
 */
export function addRuntimeTool(state, makeTool) {
  state.addedTools += 1;
  const tool = makeTool(state.addedTools);
  state.tools.set(tool.name, tool);
}

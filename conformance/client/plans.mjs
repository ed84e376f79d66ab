/**
 * What the conformance app does against a server, as configuration: the same
 * role a real app's settings play (which tools to call, with what). The default
 * exercises everything the server offers; a scenario may name the calls instead.
 */

/**
 * @typedef {object} ToolCall
 * @property {string} name
 * @property {Record<string, unknown>} [arguments]
 */

/**
 * @typedef {object} SchemaEcho
 * A call whose argument is another tool's `inputSchema`, passed on as received:
 * the app's way of showing a schema survives the client untouched.
 * @property {string} from  the tool whose schema is sent
 * @property {string} to    the tool that receives it
 * @property {string} argument  the argument that carries it
 */

/**
 * @typedef {object} Plan
 * @property {readonly ToolCall[]} [toolCalls]  call exactly these, in order (default: every listed tool)
 * @property {SchemaEcho} [schemaEcho]
 * @property {boolean} [browse]  read every resource and get every prompt the server lists (default true)
 * @property {readonly string[]} [useSkills]  skills (by name) the task needs, so the host loads them (default none:
 *   listed skills are only offered, never read)
 */

/** @type {Readonly<Record<string, Plan>>} */
const PLANS = {
  'json-schema-2020-12-preservation': {
    schemaEcho: { from: 'json_schema_2020_12_tool', to: 'json_schema_echo', argument: 'schema' },
    browse: false,
  },
  // A task that needs the PDF skill: the host loads it, so it must verify what it reads.
  'sep-2640-client-verify-digest': { useSkills: ['pdf-processing'] },
  'sep-2640-client-verify-size': { useSkills: ['pdf-processing'] },
  'sep-2640-client-verify-frontmatter': { useSkills: ['pdf-processing'] },
};

/**
 * The plan for a run: the scenario's entry, with `toolCalls` taken from the
 * context the harness hands over (`MCP_CONFORMANCE_CONTEXT`) when it has them.
 * @param {string | undefined} scenario
 * @param {Record<string, unknown>} context
 * @returns {Plan}
 */
export function planFor(scenario, context) {
  const plan = (scenario && PLANS[scenario]) || {};
  const calls = context.toolCalls;
  if (!Array.isArray(calls)) return plan;
  return { ...plan, toolCalls: calls.filter(isToolCall) };
}

/** @param {unknown} value @returns {value is ToolCall} */
function isToolCall(value) {
  return typeof value === 'object' && value !== null && typeof (/** @type {ToolCall} */ (value).name) === 'string';
}

/** Who the reference server says it is, and what each profile declares. */

/** The `serverInfo` of the initialize result (2025-11-25, basic/lifecycle). */
export const serverInfo = Object.freeze({
  name: 'mcp-reference-server',
  version: '1.0.0',
  title: 'MCP Reference Server',
});

/** The initialize result's `instructions`. */
export const instructions =
  'Reference server for the @mcp client tests. Every tool, resource and prompt is described in test-servers/README.md.';

/** @typedef {'full' | 'minimal' | 'structured' | 'url-elicitation'} Profile */

/** Profiles `--profile` accepts. */
export const PROFILES = Object.freeze(['full', 'minimal', 'structured', 'url-elicitation']);

/**
 * Capabilities per profile. `minimal` declares tools alone, so a client's
 * capability gating (2025-11-25, basic/lifecycle § Capability Negotiation) can be
 * tested against resources, prompts, completions and logging being absent;
 * `structured` (tools with output schemas) and `url-elicitation` declare tools alone too.
 * @param {Profile} profile
 */
export function capabilitiesFor(profile) {
  if (profile !== 'full') return { tools: {} };
  return {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  };
}

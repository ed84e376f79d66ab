import type { Tool } from '../protocol/tool-definition.js';

/**
 * Whether a view may call `tool`: its `_meta.ui.visibility` includes `"app"`,
 * or is absent (the default is `["model", "app"]`, MCP Apps 2026-01-26,
 * visibility). A visibility that is not an array of strings grants nothing.
 */
export function viewMayCall(tool: Tool): boolean {
  const ui = tool._meta?.ui;
  if (ui === undefined || ui === null || typeof ui !== 'object') return true;
  const visibility = (ui as Record<string, unknown>).visibility;
  if (visibility === undefined) return true;
  return Array.isArray(visibility) && visibility.includes('app');
}

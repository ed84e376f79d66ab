import type { AppDisplayMode } from './host-context.js';

/**
 * Whether a view may be switched to `mode`: the host must list it, and the view
 * too when it declared its modes (MCP Apps 2026-01-26, display modes: the host
 * MUST NOT switch a view to a mode it did not declare). A host that lists no
 * modes offers none beyond the current one.
 */
export function mayShowIn(
  mode: AppDisplayMode,
  hostModes: readonly AppDisplayMode[] | undefined,
  viewModes: readonly string[] | undefined,
): boolean {
  return (hostModes ?? []).includes(mode) && (viewModes === undefined || viewModes.includes(mode));
}

import type { Tool } from '../protocol/tool-definition.js';

/** How a view is shown (MCP Apps 2026-01-26, display modes). */
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';

/**
 * The room a view has. Per dimension, a fixed `height`/`width` means the host
 * sizes it; `maxHeight`/`maxWidth` means the view sizes itself up to that; neither
 * means no limit (MCP Apps 2026-01-26, container dimensions).
 */
export interface AppContainerDimensions {
  height?: number;
  maxHeight?: number;
  width?: number;
  maxWidth?: number;
}

/**
 * What the host tells a view about where it is shown, in the `ui/initialize`
 * answer and in `ui/notifications/host-context-changed` (MCP Apps 2026-01-26,
 * `HostContext`). Every field is optional; `setHostContext` sends only what changed.
 */
export interface AppHostContext {
  /** The tool call that made the view; `AppHost` fills it in from `toolCall`. */
  toolInfo?: { id?: string | number; tool: Tool };
  theme?: 'light' | 'dark';
  /** CSS custom properties (`--color-background-primary`, …) and font CSS for the view to adopt. */
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: AppDisplayMode;
  /** The display modes this host can switch to; a view asks only for these. */
  availableDisplayModes?: AppDisplayMode[];
  containerDimensions?: AppContainerDimensions;
  /** BCP 47, e.g. `en-US`. */
  locale?: string;
  /** IANA, e.g. `Europe/Paris`. */
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
}

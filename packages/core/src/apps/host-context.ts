import type { Tool } from '../protocol/tool-definition.js';

/** How a view is shown (MCP Apps 2026-01-26, display modes). */
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';

/**
 * The room a view has. Per dimension, a fixed `height`/`width` means the host
 * sizes it; `maxHeight`/`maxWidth` means the view sizes itself up to that; neither
 * means no limit (MCP Apps 2026-01-26, container dimensions).
 */
export interface AppContainerDimensions {
  /** The height the host gives the view, in px; the view's own height is then ignored. */
  height?: number;
  /** The most height the view may grow to, in px, when the host does not fix it. */
  maxHeight?: number;
  /** The width the host gives the view, in px; the view's own width is then ignored. */
  width?: number;
  /** The most width the view may grow to, in px, when the host does not fix it. */
  maxWidth?: number;
}

/**
 * What the host tells a view about where it is shown, in the `ui/initialize`
 * answer and in `ui/notifications/host-context-changed` (MCP Apps 2026-01-26,
 * `HostContext`). Every field is optional; `setHostContext` sends only what changed.
 */
export interface AppHostContext {
  /** The tool call that made the view; `AppHost` fills it in from `toolCall`. */
  toolInfo?: {
    /** The JSON-RPC id of the `tools/call` request, when known. */
    id?: string | number;
    /** The called tool's definition, as its server lists it. */
    tool: Tool;
  };
  /** The host's color scheme, for the view to match. */
  theme?: 'light' | 'dark';
  /** CSS custom properties (`--color-background-primary`, …) and font CSS for the view to adopt. */
  styles?: {
    /** Values of the host's CSS custom properties, keyed by property name (`--color-background-primary`); undefined when the host has none. */
    variables?: Record<string, string | undefined>;
    /** CSS blocks the view may inject. */
    css?: {
      /** CSS that loads the host's fonts (`@font-face` rules or `@import`s). */
      fonts?: string;
    };
  };
  /** How the view is shown now. */
  displayMode?: AppDisplayMode;
  /** The display modes this host can switch to; a view asks only for these. */
  availableDisplayModes?: AppDisplayMode[];
  /** The room the view has, in px: fixed or maximum height and width. */
  containerDimensions?: AppContainerDimensions;
  /** BCP 47, e.g. `en-US`. */
  locale?: string;
  /** IANA, e.g. `Europe/Paris`. */
  timeZone?: string;
  /** Identifies the host application (the host's own string, not the browser's `navigator.userAgent`). */
  userAgent?: string;
  /** The kind of client the host runs as. */
  platform?: 'web' | 'desktop' | 'mobile';
  /** What input the user's device offers. */
  deviceCapabilities?: {
    /** Whether the device has a touch screen. */
    touch?: boolean;
    /** Whether the primary pointer can hover (a mouse, not a finger). */
    hover?: boolean;
  };
  /** Insets, in px, that the view should keep its content out of (notches, rounded corners, system bars). */
  safeAreaInsets?: {
    /** Inset from the top edge, in px. */
    top: number;
    /** Inset from the right edge, in px. */
    right: number;
    /** Inset from the bottom edge, in px. */
    bottom: number;
    /** Inset from the left edge, in px. */
    left: number;
  };
}

import * as v from 'valibot';
import type { AppViewErrorCode } from './app-view-error.js';

/**
 * What the host and the sandbox proxy page say to each other (MCP Apps
 * 2026-01-26, "Sandbox proxy"). Every other message passes through the proxy
 * untouched; these few stop at it, and a view can never send one.
 */

/** Proxy → host: the proxy is up and waits for the view's HTML. */
export const SANDBOX_PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
/** Host → proxy: the view's HTML, its CSP and its permissions. */
export const SANDBOX_RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
/**
 * Proxy → host: the proxy refused the view or took it down, with the
 * `AppViewErrorCode` to tear the host side down with. Ours: the spec keeps
 * `ui/notifications/sandbox-*` for the host and its proxy.
 */
export const SANDBOX_ERROR = 'ui/notifications/sandbox-error';
/** The prefix of every method above: the proxy drops a view's message that uses it. */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/**
 * The params of `ui/notifications/sandbox-resource-ready`: the spec's `html`,
 * `csp`, `permissions` and `sandbox`, and our `maxMessageBytes`, the bound the
 * proxy holds the view's messages to before they reach the host page.
 */
export const SandboxResourceSchema = v.object({
  html: v.string(),
  /** The resource's `_meta.ui.csp`, checked again by the proxy (`buildAppCsp`). */
  csp: v.optional(v.unknown()),
  /** The permissions the app granted, of those the resource declared. */
  permissions: v.optional(v.unknown()),
  /** Extra sandbox tokens; only `allow-forms` and `allow-popups` are honoured. */
  sandbox: v.optional(v.string()),
  maxMessageBytes: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
});
/** The params of `ui/notifications/sandbox-resource-ready`. */
export type SandboxResource = v.InferOutput<typeof SandboxResourceSchema>;

/** The params of `ui/notifications/sandbox-error`. */
export interface SandboxErrorParams {
  readonly code: AppViewErrorCode;
  readonly message: string;
}

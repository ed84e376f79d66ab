import type { AppPermissions } from './app-policy.js';

/** Each permission a view may declare, with the Permissions Policy feature it maps to (MCP Apps 2026-01-26, `permissions`). */
const FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const satisfies Record<keyof AppPermissions, string>;

type Permission = keyof typeof FEATURES;

/** Permissions as the spec spells them: each one present is asked for (`{}`). */
export type AppDeclaredPermissions = Partial<Record<Permission, Record<string, never>>>;

/**
 * The permissions a view gets: each one its resource declares in
 * `_meta.ui.permissions` AND the app grants in `policy.permissions`, nothing
 * else. The spec declares one as an empty object; `true` is taken too,
 * `false`, null and inherited members are not.
 */
export function grantedPermissions(declared: unknown, granted: AppPermissions | undefined): AppDeclaredPermissions {
  if (typeof declared !== 'object' || declared === null || granted === undefined) return {};
  const asked = declared as Record<string, unknown>;
  const names = (Object.keys(FEATURES) as Permission[]).filter(
    (name) => Object.hasOwn(asked, name) && asked[name] !== false && asked[name] != null && granted[name] === true,
  );
  return Object.fromEntries(names.map((name) => [name, {}]));
}

/**
 * The iframe `allow` attribute for `permissions` (ones already granted):
 * `camera; clipboard-write`, each feature for the frame's own document, or for
 * `origin` when given. Both iframes, the sandbox proxy's and the view's, carry
 * it, since a frame can only pass on what its parent was given. Empty leaves
 * every one of these features off.
 */
export function appAllowAttribute(permissions: AppDeclaredPermissions | undefined, origin?: string): string {
  return (Object.keys(FEATURES) as Permission[])
    .filter((name) => permissions?.[name] !== undefined)
    .map((name) => (origin === undefined ? FEATURES[name] : `${FEATURES[name]} ${origin}`))
    .join('; ');
}

import type { AppPermissions } from './app-policy.js';

/** Each permission a view may declare, with the Permissions Policy feature it maps to (MCP Apps 2026-01-26, `permissions`). */
const FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const satisfies Record<keyof AppPermissions, string>;

/**
 * The iframe `allow` attribute for a view: each feature its resource declares
 * in `_meta.ui.permissions` AND the app grants in `policy.permissions`, nothing
 * else. Both iframes (the sandbox proxy's and the view's) need it, since a
 * frame can only pass on what its parent was given. Empty when nothing is
 * granted, which leaves every one of these features off.
 */
export function appAllowAttribute(declared: unknown, granted: AppPermissions | undefined): string {
  if (typeof declared !== 'object' || declared === null || granted === undefined) return '';
  const asked = declared as Record<string, unknown>;
  const features: string[] = [];
  for (const [name, feature] of Object.entries(FEATURES)) {
    // The spec declares a permission as an empty object; `true` is taken too, `false` and null are not.
    const wanted = Object.hasOwn(asked, name) && asked[name] !== false && asked[name] != null;
    if (wanted && granted[name as keyof AppPermissions] === true) features.push(feature);
  }
  return features.join('; ');
}

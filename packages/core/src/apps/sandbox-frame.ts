import { appAllowAttribute } from './app-allow.js';
import { AppViewError } from './app-view-error.js';
import type { ViewResource } from './view-resource.js';

/**
 * The sandbox proxy page's URL, checked: http(s), and on an origin other than
 * the page's. The view runs inside the proxy's frame; on the page's own origin
 * that frame (which needs `allow-same-origin` to host the view) could reach the
 * page's DOM, storage and tokens, so the sandbox would be moot (MCP Apps
 * 2026-01-26, sandbox proxy: host and sandbox MUST have different origins).
 */
export function sandboxUrl(url: string | URL, page: Location = globalThis.location): URL {
  const base = page?.href;
  const parsed = URL.canParse(url, base) ? new URL(url, base) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new AppViewError('invalid_sandbox', `the sandbox proxy must be an http(s) URL, not ${String(url)}`);
  }
  if (page !== undefined && parsed.origin === page.origin) {
    throw new AppViewError(
      'same_origin',
      `the sandbox proxy ${parsed.origin} is on this page's origin: host it on another origin, or the view could reach the page`,
    );
  }
  return parsed;
}

/**
 * The outer iframe: the sandbox proxy page. It gets scripts and its own
 * origin (the spec's two flags, so it can build the view's frame) and no
 * popups, top navigation or downloads; features the app granted are delegated
 * through `allow` so the proxy can pass them on to the view.
 */
export function createSandboxFrame(
  url: URL,
  resource: Pick<ViewResource, 'permissions'>,
  title: string,
): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const allow = appAllowAttribute(resource.permissions, url.origin);
  if (allow) frame.setAttribute('allow', allow);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = title;
  frame.style.border = '0';
  frame.style.display = 'block';
  frame.style.width = '100%';
  frame.src = url.href;
  return frame;
}

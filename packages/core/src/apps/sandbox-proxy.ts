/**
 * The script of `sandbox-proxy.html`: the page an app hosts on an origin apart
 * from its own, between the host page and the view (MCP Apps 2026-01-26,
 * "Sandbox proxy"). The build inlines it into the page; nothing imports it.
 *
 * It runs only inside a parent whose origin the page's own
 * `<meta name="mcp-host-origins">` lists, loads the view once in an iframe
 * with `sandbox="allow-scripts"` (an opaque origin) under the CSP built from
 * the resource, and relays messages between that parent and that view only.
 */

import * as v from 'valibot';
import { appAllowAttribute, grantedPermissions } from './app-allow.js';
import { buildAppCsp } from './app-csp.js';
import { DEFAULT_MAX_VIEW_MESSAGE_BYTES } from './app-limits.js';
import type { AppViewErrorCode } from './app-view-error.js';
import {
  SANDBOX_ERROR,
  SANDBOX_METHOD_PREFIX,
  SANDBOX_PROXY_READY,
  SANDBOX_RESOURCE_READY,
  type SandboxErrorParams,
  SandboxResourceSchema,
} from './sandbox-protocol.js';
import { viewSandbox, withCsp } from './view-frame.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// The proxy passes on exactly what the host granted; the app's policy was applied host-side.
const GRANTED = { camera: true, microphone: true, geolocation: true, clipboardWrite: true } as const;

/** Why the proxy will not run, shown in the page and the console for whoever deploys it. */
function refuse(reason: string): void {
  console.error(`mcp sandbox proxy: ${reason}`);
  document.body.textContent = `MCP Apps sandbox proxy: ${reason}`;
}

/** The origins the deployer listed; one that is not a bare origin voids the list. */
function hostOrigins(): string[] | undefined {
  const content = document.querySelector<HTMLMetaElement>('meta[name="mcp-host-origins"]')?.content ?? '';
  const listed = content.split(/\s+/).filter(Boolean);
  for (const entry of listed) {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {}
    if (origin !== entry || !/^https?:/.test(entry)) return undefined;
  }
  return listed;
}

function methodOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { method?: unknown }).method : undefined;
}

/**
 * The view's message as plain JSON, or why not. Round-tripping through JSON
 * measures it and leaves nothing but data: no Blob, port or cycle reaches the host.
 */
function asJson(data: unknown, maxBytes: number): { value: unknown } | { code: AppViewErrorCode; message: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {}
  if (text === undefined) return { code: 'invalid_message', message: 'the view sent a message that is not JSON' };
  // A UTF-8 byte is at most three UTF-16 units, so short texts need no encoding to count.
  const bytes = text.length * 3 <= maxBytes ? text.length : new TextEncoder().encode(text).byteLength;
  if (bytes > maxBytes) {
    return { code: 'message_too_large', message: `the view sent a message of ${bytes} bytes, over ${maxBytes}` };
  }
  return { value: JSON.parse(text) };
}

function main() {
  if (window.parent === window) return refuse('this page only runs inside the iframe of an MCP Apps host.');
  const allowed = hostOrigins();
  if (!allowed || allowed.length === 0) {
    return refuse('no host may embed this page: list their origins in <meta name="mcp-host-origins" content="…">.');
  }
  // Chromium and WebKit name the parent's origin up front; elsewhere postMessage's target origin does the check.
  const parentOrigin = window.location.ancestorOrigins?.[0];
  if (parentOrigin !== undefined && !allowed.includes(parentOrigin)) {
    return refuse(`${parentOrigin} is not listed in <meta name="mcp-host-origins">.`);
  }
  const allowLoopback = LOOPBACK.has(window.location.hostname);
  let host: string | undefined;
  let view: HTMLIFrameElement | undefined;
  let maxBytes = DEFAULT_MAX_VIEW_MESSAGE_BYTES;
  let done = false;

  /** Takes the view down for good and tells the host why. */
  const fail = (code: AppViewErrorCode, message: string) => {
    if (done) return;
    done = true;
    view?.remove();
    view = undefined;
    const params: SandboxErrorParams = { code, message };
    if (host) window.parent.postMessage({ jsonrpc: '2.0', method: SANDBOX_ERROR, params }, host);
  };

  const mount = (params: unknown) => {
    const parsed = v.safeParse(SandboxResourceSchema, params);
    if (!parsed.success)
      return fail('unsupported_resource', `the sandbox got no view HTML: ${v.summarize(parsed.issues)}`);
    const resource = parsed.output;
    let csp: string;
    try {
      csp = buildAppCsp(resource.csp, { allowLoopback });
    } catch (error) {
      return fail('invalid_csp', (error as Error).message);
    }
    maxBytes = resource.maxMessageBytes ?? maxBytes;
    const frame = document.createElement('iframe');
    // Attributes before the document: the sandbox and allow list apply to the first navigation.
    frame.setAttribute('sandbox', viewSandbox(resource.sandbox));
    const allow = appAllowAttribute(grantedPermissions(resource.permissions, GRANTED));
    if (allow) frame.setAttribute('allow', allow);
    frame.title = 'MCP App';
    let loads = 0;
    // The view's document loads once. Another load means the view navigated its frame
    // to a page the CSP does not cover (no browser can stop that), so it goes.
    frame.addEventListener('load', () => {
      if (++loads > 1) fail('view_navigated', 'the view navigated its own frame away from its HTML');
    });
    frame.srcdoc = withCsp(resource.html, csp);
    view = frame;
    document.body.append(frame);
  };

  window.addEventListener('message', (event) => {
    if (done) return;
    if (event.source === window.parent) {
      if (!allowed.includes(event.origin) || (host !== undefined && event.origin !== host)) return;
      const method = methodOf(event.data);
      if (method === SANDBOX_RESOURCE_READY) {
        // One view per proxy: a second resource cannot swap the view under the host's feet.
        if (host !== undefined) return;
        host = event.origin;
        return mount((event.data as { params?: unknown }).params);
      }
      if (typeof method === 'string' && method.startsWith(SANDBOX_METHOD_PREFIX)) return;
      // The view's origin is opaque, so no target origin can name it; the window itself is the target.
      view?.contentWindow?.postMessage(event.data, '*');
      return;
    }
    if (host === undefined || view === undefined || event.source !== view.contentWindow) return;
    const message = asJson(event.data, maxBytes);
    if ('code' in message) return fail(message.code, message.message);
    const method = methodOf(message.value);
    if (typeof method === 'string' && method.startsWith(SANDBOX_METHOD_PREFIX)) {
      return fail('invalid_message', `the view sent ${method.slice(0, 80)}, which only the sandbox may send`);
    }
    window.parent.postMessage(message.value, host);
  });

  const ready = { jsonrpc: '2.0', method: SANDBOX_PROXY_READY, params: {} };
  // Posted per listed origin: the browser delivers it only to the one the parent has.
  for (const origin of parentOrigin !== undefined ? [parentOrigin] : allowed) window.parent.postMessage(ready, origin);
}

main();

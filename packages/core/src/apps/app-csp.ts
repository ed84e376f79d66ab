import * as v from 'valibot';
import { AppViewError } from './app-view-error.js';

/** How {@link buildAppCsp} reads the declared origins. */
export interface AppCspOptions {
  /**
   * Accept `http:` and `ws:` origins on loopback hosts (`localhost`, `127.0.0.1`,
   * `[::1]`), for development. Off by default: a deployed view gets `https:` and
   * `wss:` only. The sandbox proxy turns it on only when it is itself served
   * from a loopback origin.
   */
  readonly allowLoopback?: boolean;
}

/** Most origins one `ui.csp` list may hold; more is refused, not cut. */
export const MAX_APP_CSP_SOURCES = 64;

const OriginsSchema = v.optional(v.array(v.string()));

/**
 * The origins a view declares in its resource's `_meta.ui.csp` (MCP Apps
 * 2026-01-26, `McpUiResourceCsp`): connections, static resources, nested
 * frames and base URIs. Members a later revision may add are dropped. The
 * server writes these, so every entry is hostile until {@link buildAppCsp}
 * has checked it.
 */
export const AppCspSchema = v.object({
  connectDomains: OriginsSchema,
  resourceDomains: OriginsSchema,
  frameDomains: OriginsSchema,
  baseUriDomains: OriginsSchema,
});
/** The origins a view declares in `_meta.ui.csp`, by directive family. */
export type AppCsp = v.InferOutput<typeof AppCspSchema>;

// One DNS label (letters, digits, inner hyphens), then a port of up to five digits.
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const SOURCE = new RegExp(`^([a-z]+)://(\\*\\.)?((?:${LABEL}\\.)*${LABEL}|\\[::1\\])(?::(\\d{1,5}))?/?$`);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

type Field = keyof AppCsp;

/**
 * One declared origin as a CSP source, or an `AppViewError` (`invalid_csp`).
 * Anything but `scheme://host[:port]` is refused, so no quote, semicolon,
 * space, path or keyword (`'unsafe-eval'`, `*`, `data:`) can reach the policy.
 * A wildcard is allowed only as the spec shows it, a leading `*.` under a name
 * of at least two labels (`https://*.example.com`, never `https://*.com`).
 */
function cspSource(entry: string, field: Field, options: AppCspOptions): string {
  const refuse = (why: string): never => {
    throw new AppViewError('invalid_csp', `ui.csp.${field} entry ${JSON.stringify(entry.slice(0, 80))} ${why}`);
  };
  const match = entry.length <= 262 ? SOURCE.exec(entry.toLowerCase()) : null;
  if (!match) return refuse('is not an origin like https://api.example.com');
  const [, scheme = '', wildcard, host = '', port] = match;
  const secure = field === 'connectDomains' ? ['https', 'wss'] : ['https'];
  const loopback = field === 'connectDomains' ? ['http', 'ws'] : ['http'];
  if (!secure.includes(scheme)) {
    const allowed = options.allowLoopback && loopback.includes(scheme) && LOOPBACK.has(host) && !wildcard;
    if (!allowed) return refuse(`uses ${scheme}: where only ${secure.join(': or ')}: is allowed`);
  }
  if (wildcard && host.split('.').length < 2) return refuse('puts a wildcard over a whole top-level domain');
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return refuse('has no valid port');
  return `${scheme}://${wildcard ?? ''}${host}${port === undefined ? '' : `:${port}`}`;
}

function sources(csp: AppCsp, field: Field, options: AppCspOptions): string[] {
  const list = csp[field] ?? [];
  if (list.length > MAX_APP_CSP_SOURCES) {
    throw new AppViewError(
      'invalid_csp',
      `ui.csp.${field} lists ${list.length} origins, more than ${MAX_APP_CSP_SOURCES}`,
    );
  }
  return [...new Set(list.map((entry) => cspSource(entry, field, options)))];
}

/**
 * The Content-Security-Policy a view runs under, from its resource's
 * `_meta.ui.csp` (MCP Apps 2026-01-26, "Content Security Policy Enforcement").
 * Nothing undeclared loads: without `csp` it is the spec's restrictive default
 * (`default-src 'none'`, inline scripts and styles, `data:` images and media,
 * `connect-src 'none'`, `frame-src 'none'`, `object-src 'none'`,
 * `base-uri 'self'`), and each declared list opens only its own directives.
 *
 * Two points are stricter than the spec, as it allows. The spec's `'self'` in
 * script, style, image, font and media sources is left out: in the sandbox
 * proxy it names the proxy's origin, where no view's files live. And forms
 * post nowhere (`form-action 'none'`).
 *
 * @throws AppViewError `invalid_csp` when `csp` is not the spec's shape or an
 * entry is not a plain origin: a host refuses such a view rather than guess.
 */
export function buildAppCsp(csp?: unknown, options: AppCspOptions = {}): string {
  const parsed = v.safeParse(AppCspSchema, csp ?? {});
  // valibot takes an array for an object; a list of lists is no csp either.
  if (!parsed.success || Array.isArray(csp)) {
    const why = parsed.success ? 'it is an array' : v.summarize(parsed.issues);
    throw new AppViewError('invalid_csp', `ui.csp is not a set of origin lists: ${why}`);
  }
  const connect = sources(parsed.output, 'connectDomains', options);
  const resource = sources(parsed.output, 'resourceDomains', options);
  const frame = sources(parsed.output, 'frameDomains', options);
  const base = sources(parsed.output, 'baseUriDomains', options);
  const directive = (name: string, fixed: string[], declared: string[], none = "'none'") => {
    const all = [...fixed, ...declared];
    return `${name} ${all.length > 0 ? all.join(' ') : none}`;
  };
  return [
    "default-src 'none'",
    directive('script-src', ["'unsafe-inline'"], resource),
    directive('style-src', ["'unsafe-inline'"], resource),
    directive('img-src', ['data:'], resource),
    directive('font-src', [], resource),
    directive('media-src', ['data:'], resource),
    directive('connect-src', [], connect),
    directive('frame-src', [], frame),
    "object-src 'none'",
    directive('base-uri', [], base, "'self'"),
    "form-action 'none'",
  ].join('; ');
}

/**
 * Types of the apps test server (serve.mjs), for TypeScript tests anywhere in the repository. The tools,
 * views and probes are the ones test-servers/README.md documents ("Apps server").
 */

/** One request a CSP probe view made to the server. */
export interface ProbeHit {
  /** The origin the request reached: `AppsServer.origin` (declared by `show-csp`) or `otherOrigin` (never declared). */
  origin: string;
  /** `/probe/connect` (a fetch) or `/probe/pixel.png` (an image). */
  path: string;
  /** `declared` or `undeclared`: which of the two the view meant to reach. */
  from: string | null;
}

/** A running apps test server. */
export interface AppsServer {
  /** The MCP endpoint (`<origin>/mcp`), both eras on the v2 SDK. */
  url: string;
  /** `http://127.0.0.1:<port>`; `show-csp` declares it in `connectDomains` and `resourceDomains`. */
  origin: string;
  /** The same server on a second port; no resource declares it. */
  otherOrigin: string;
  /** Every request the probe views made, in order. */
  probes(): ProbeHit[];
  /** Ends sessions, then stops both listeners. */
  close(): Promise<void>;
}

/** Starts the apps test server on 127.0.0.1 (each port 0, any free one, unless given); the views are bundled first. */
export function startAppsServer(options?: { port?: number; otherPort?: number }): Promise<AppsServer>;

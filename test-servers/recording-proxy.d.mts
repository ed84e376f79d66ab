/** Types of recording-proxy.mjs, for TypeScript tests anywhere in the repository. */

/** A proxy in front of an MCP server, recording what crosses it. */
export interface RecordingProxy {
  /** The proxy's URL, to give a client in place of the server's. */
  readonly url: string;
  /** Each request's JSON-RPC method, in order (`(response)` for a message without one). */
  readonly methods: string[];
  /** The `Mcp-Session-Id` of each request that carried one, in order. */
  readonly sessions: string[];
  /** Session ids answered 404, as a server that forgot them would. */
  readonly forgotten: Set<string>;
  /** Methods answered 503, as an overloaded server would. */
  readonly unavailable: Set<string>;
  /** How many requests had `method`. */
  count(method: string): number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 in front of `target`. */
export function startRecordingProxy(target: string): Promise<RecordingProxy>;

/** One HTTP request as the transport asks for it; the requester adds credentials on every attempt. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Defaults to the endpoint the requester was made for. */
  readonly url?: URL;
  readonly headers: Headers;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Safe to repeat after any network failure (see client/rpc/safe-methods.ts). */
  readonly idempotent: boolean;
}

/**
 * What the code loaded on demand (recovery/, legacy-sse-session.ts) asks of the
 * transport's requester (`HttpRequester`). It is declared here so those modules
 * import nothing back from the modules that load them, and the import graph has
 * no cycle.
 */
export interface Requester {
  /** The endpoint. */
  readonly url: URL;
  /** Sends `request` with credentials, the retry policy and redirects; resolves with the response that stands. */
  send(request: HttpRequest): Promise<Response>;
}

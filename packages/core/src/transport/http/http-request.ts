/** One HTTP request as the transport asks for it; the requester adds credentials on every attempt. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Defaults to the endpoint the requester was made for. */
  readonly url?: URL;
  readonly headers: Headers;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Safe to repeat after any network failure (see client/safe-methods.ts). */
  readonly idempotent: boolean;
}

/**
 * What the code loaded on demand (resilience/) asks of the transport's requester
 * (`HttpRequester`): declared here, so that module imports nothing back from the
 * modules that load it, and the import graph has no cycle.
 */
export interface Requester {
  /** The endpoint. */
  readonly url: URL;
  /** Sends `request` with credentials, the retry policy and redirects; resolves with the response that stands. */
  send(request: HttpRequest): Promise<Response>;
}

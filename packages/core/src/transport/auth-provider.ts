/** A request as the transport describes it to the auth provider: one object per attempt. */
export interface AuthRequest {
  /** The HTTP method (`GET`, `POST`, `DELETE`). */
  readonly method: string;
  /** The URL the request goes to (a redirect's target, when it follows one). */
  readonly url: URL;
}

/**
 * What the HTTP transport calls on `StreamableHttpTransportOptions.auth`, and nothing more, so the transport
 * needs no OAuth code: `OAuthProvider` implements it, and so can any other scheme that adds headers to a
 * request and may ask for it to be sent again after the server refuses it.
 */
export interface AuthProvider {
  /**
   * Headers for one attempt (e.g. `Authorization`), asked before every attempt and again before a same-origin
   * redirect hop. The same `request` object is later passed to `onResponse`, so it may key per-attempt state.
   */
  headers(request: AuthRequest): Promise<Record<string, string>>;
  /**
   * Sees the response to every request. 'retry' sends the request again with fresh headers: return it only when
   * the server refused the request (401, 403), never ran it. The transport resends a bounded number of times.
   */
  onResponse(response: Response, request: AuthRequest): Promise<'retry' | 'done'>;
  /** Names who the requests to `url` act as, never the token itself: changes when new credentials replace the old. */
  credentialKey(url: URL): Promise<string>;
}

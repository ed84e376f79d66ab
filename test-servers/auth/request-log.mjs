/**
 * The record of everything a scenario's servers received, so a test can
 * assert what the client sent: `resource` on both the authorization and the
 * token request, the client authentication used, `application_type` at DCR,
 * and that no token ever travelled in a URL (2025-11-25 § Access Token Usage).
 */

/**
 * @typedef {object} RecordedRequest
 * @property {'as' | 'mcp'} server which listener answered
 * @property {string} httpMethod
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string>} headers lower-case names
 * @property {Record<string, string>} [form] an application/x-www-form-urlencoded body
 * @property {unknown} [json] a JSON body
 * @property {string} [rpcMethod] the JSON-RPC method of a POST to the MCP endpoint
 * @property {string} [tool] `params.name` of a tools/call
 * @property {number} [status] the answer's status
 * @property {string} [error] the OAuth `error` the answer carried
 */

/** Creates the log of one scenario. */
export function createRequestLog() {
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {{ via: 'dcr' | 'cimd', client_id: string, metadata: Record<string, unknown> }[]} */
  const registrations = [];
  /** @type {string[]} client metadata document URLs fetched (CIMD) */
  const cimdFetches = [];

  return {
    requests,
    registrations,
    cimdFetches,
    /**
     * Records a request before it is handled; the body is read from a clone.
     * @param {'as' | 'mcp'} server
     * @param {Request} request
     * @returns {Promise<RecordedRequest>} fill in `status`/`error` once answered
     */
    async record(server, request) {
      const url = new URL(request.url);
      /** @type {RecordedRequest} */
      const entry = {
        server,
        httpMethod: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(request.headers),
      };
      requests.push(entry);
      if (request.method !== 'POST' || request.body === null) return entry;
      const type = request.headers.get('content-type') ?? '';
      const text = await request.clone().text();
      if (type.startsWith('application/x-www-form-urlencoded')) {
        entry.form = Object.fromEntries(new URLSearchParams(text));
      } else if (type.includes('json')) {
        try {
          entry.json = JSON.parse(text);
        } catch {
          // Not JSON after all: the handler answers that.
        }
      }
      return entry;
    },
    /**
     * The stats document (GET /scenarios/<id>/stats).
     * @param {string[]} tokens every token issued so far
     */
    stats(tokens) {
      const tokensInUrls = requests
        .filter((entry) => tokens.some((token) => Object.values(entry.query).some((value) => value.includes(token))))
        .map((entry) => `${entry.server} ${entry.httpMethod} ${entry.path}`);
      return { requests, registrations, cimdFetches, tokensInUrls };
    },
  };
}

/** @typedef {ReturnType<typeof createRequestLog>} RequestLog */

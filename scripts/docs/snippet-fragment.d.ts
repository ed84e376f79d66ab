// What a `<!-- snippet: fragment -->` in the docs may use without declaring it: the program around the
// fragment, which the prose describes. Only fragments see these names (scripts/docs/check-snippets.mjs
// checks them in a program of their own); a whole snippet declares or imports everything it uses.
// Keep the list short: a name belongs here only when several snippets stand in the same surroundings.

/** A connected client, made as the snippets before the fragment show. */
declare const client: import('@mcp/core').Client;
/** Any AI SDK model. */
declare const model: import('ai').LanguageModel;
/** The request a Worker (or a Durable Object) is answering. */
declare const request: Request;
/** A Worker's bindings, as the examples name them. */
declare const env: { readonly MCP_URL: string; readonly MCP_SESSIONS: KVNamespace; readonly OAUTH_KV: KVNamespace };
/** A Durable Object's storage. */
declare const storage: DurableObjectStorage;

// The README's quick starts: the app's own sign-in and question dialog, and two more servers.
declare function getAccessToken(): Promise<string>;
declare function askTheUser(
  request: import('@mcp/core').ElicitRequestParams,
): Promise<import('@mcp/core').ElicitResult>;
declare const githubClient: import('@mcp/core').Client;
declare const docsClient: import('@mcp/core').Client;

// The React snippets: the app's own chat component, under the provider.
declare function Chat(): import('react').ReactNode;

/** Types of the forms test server (serve.mjs), for TypeScript tests anywhere in the repository. */
export interface FormsServer {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

export function startFormsServer(): Promise<FormsServer>;

import { McpError } from './mcp-error.js';

/**
 * A method needs a capability the server did not declare. Thrown before anything
 * is sent, so the server never sees the request.
 */
export class CapabilityError extends McpError {
  override name = 'CapabilityError';
  /** The capability path, e.g. `tools` or `resources.subscribe`. */
  readonly capability: string;
  /** The method that was not sent. */
  readonly method: string;

  /** `method` needs `capability`, which the server did not declare. */
  constructor(capability: string, method: string) {
    super(`${method}: the server did not declare the "${capability}" capability`);
    this.capability = capability;
    this.method = method;
  }
}

import { McpError } from './mcp-error.js';

/** Client and server share no protocol revision. */
export class UnsupportedVersionError extends McpError {
  override name = 'UnsupportedVersionError';
  /** The version the client asked for, or the one the server answered with. */
  readonly requested: string;
  /** The versions the other side supports, when known. */
  readonly supported: readonly string[];

  /** `options.cause`: the server's refusal (an `RpcError`) when it came as one. */
  constructor(requested: string, supported: readonly string[], message?: string, options?: ErrorOptions) {
    super(
      message ??
        `protocol version ${JSON.stringify(requested)} is not supported (supported: ${supported.join(', ') || 'unknown'})`,
      options,
    );
    this.requested = requested;
    this.supported = supported;
  }
}

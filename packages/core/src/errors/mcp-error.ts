/** The root of every error this SDK throws on purpose; `instanceof McpError` catches them all. */
export class McpError extends Error {
  override name = 'McpError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

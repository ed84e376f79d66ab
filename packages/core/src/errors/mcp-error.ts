/** The root of every error this SDK throws on purpose; `instanceof McpError` catches them all. */
export class McpError extends Error {
  /** The class's name, as `error.name` and logs show it (each subclass sets its own). */
  override name = 'McpError';

  /** `options.cause`: the error this one wraps, if any. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

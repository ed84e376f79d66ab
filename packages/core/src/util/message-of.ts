/** The message of anything thrown: an `Error`'s own message, any other value as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

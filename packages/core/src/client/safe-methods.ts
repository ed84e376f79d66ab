/**
 * Requests that change nothing on the server, so repeating one is harmless. A
 * retry policy may resend these after any network failure, even where the
 * runtime cannot prove the first attempt never arrived. `tools/call` is not here:
 * a tool may act, and running it twice could do the act twice.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

export const isSafeToRepeat = (method: string): boolean => SAFE_METHODS.has(method);

import { isLoopback } from '../util/loopback.js';

/**
 * Refuses a redirect URI that is neither https nor http on this machine: every
 * redirect URI MUST be `localhost` or https (MCP Authorization, 2025-03-26 on,
 * "Security Considerations"), so an authorization code never crosses a network
 * in clear. "This machine" is the one `isLoopback` rule. The OAuthProvider
 * constructor checks its options with it, so a wrong one fails before anything
 * is registered or any user is sent anywhere: a TypeError naming `option`, the
 * option as the app wrote it.
 */
export function assertRedirectUri(uri: unknown, option: string): void {
  const url = typeof uri === 'string' && URL.canParse(uri) ? new URL(uri) : undefined;
  if (url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopback(url))) return;
  throw new TypeError(
    `${option} must be an https URL, or an http one on localhost or a loopback address (MCP authorization requires it of every redirect URI); got ${JSON.stringify(uri)}`,
  );
}

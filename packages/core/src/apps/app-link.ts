/** Longest link a view may ask to open, in characters. */
export const MAX_VIEW_LINK_LENGTH = 8_192;

/**
 * The URL a view's `ui/open-link` may reach the app's `openLink` with, or
 * `undefined`. Only `https:`: a `javascript:` or `data:` URL runs code in
 * whatever opens it, `file:` reads the user's disk, and plain `http:` (even to
 * this machine, which elicitation and sign-in URLs allow for development) lets
 * third-party code aim the user at local services in clear. Credentials in the
 * URL are refused too: they would be shown to, or sent as, the user.
 */
export function linkToOpen(url: string): URL | undefined {
  if (url.length > MAX_VIEW_LINK_LENGTH || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return undefined;
  return parsed;
}

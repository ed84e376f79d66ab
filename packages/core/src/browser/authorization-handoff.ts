/**
 * The BroadcastChannel on which a callback page with no opener hands its URL to
 * the app's tabs. The browser delivers its messages only to pages, workers and
 * frames of the same origin (and storage partition), so no other site can
 * post on it or hear it.
 */
export const CALLBACK_CHANNEL = 'mcp-oauth-callback';

/**
 * The longest callback URL a listener takes, in characters: 16,384. An
 * authorization response (`code`, `state`, `iss`) is far shorter; a longer
 * message is not one, and is ignored unread.
 */
export const MAX_CALLBACK_URL_LENGTH = 16_384;

/** The `type` of the message a callback page sends: to its opener (a popup), or on {@link CALLBACK_CHANNEL}. */
export const CALLBACK_MESSAGE = 'mcp-oauth-callback';

/** What a callback page sends: its own URL, the authorization response. */
interface CallbackMessage {
  readonly type: typeof CALLBACK_MESSAGE;
  readonly url: string;
}

/** Publishes `url` (the callback page's own) to every tab of this origin listening. */
export function publishAuthorizationResponse(url: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CALLBACK_CHANNEL);
  const message: CallbackMessage = { type: CALLBACK_MESSAGE, url };
  channel.postMessage(message);
  channel.close();
}

/**
 * For the app's tabs, when a popup was blocked and the user follows the
 * authorization URL as a plain link: the callback page lands in a tab of its
 * own, with no opener, and `postAuthorizationResponse()` publishes its URL on
 * {@link CALLBACK_CHANNEL}. `receive` gets each such URL; give it to the
 * waiting `AuthorizationGate`'s `complete(url)`, which takes only the response
 * to its own flow (its `state`), so every waiting tab may be handed every URL.
 *
 * Only a string URL of this page's origin, at most
 * {@link MAX_CALLBACK_URL_LENGTH} characters, reaches `receive`; anything else
 * on the channel is ignored. Returns the function that stops listening; call
 * it when nothing waits any more. Where there is no BroadcastChannel (server
 * rendering), listens to nothing.
 */
export function listenForAuthorizationResponses(receive: (callbackUrl: string) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CALLBACK_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const url = callbackUrlOf(event.data);
    if (url !== undefined) receive(url);
  };
  return () => channel.close();
}

/** The URL a message on the channel carries, if it is a callback URL of this origin; else undefined. */
function callbackUrlOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { type, url } = data as Partial<Record<keyof CallbackMessage, unknown>>;
  if (type !== CALLBACK_MESSAGE || typeof url !== 'string' || url.length > MAX_CALLBACK_URL_LENGTH) return undefined;
  const origin = globalThis.location?.origin;
  if (origin === undefined || !URL.canParse(url) || new URL(url).origin !== origin) return undefined;
  return url;
}

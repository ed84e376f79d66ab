import type { ElicitRequestUrlParams } from '../protocol/elicitation.js';
import { RpcError } from './rpc-error.js';

/**
 * The server refused a request until the user completes URL flows (-32042,
 * 2025-11-25 client/elicitation § URL Elicitation Required Error), and the
 * client did not get past it: the app has no URL-mode elicitation handler
 * (`elicitation: { handler, url: true }`), the handler did not accept every
 * one, a URL was not safe to open, or the one retry was refused again.
 * `elicitations` are the server's URL-mode requests, validated, so an app can
 * still show them (with consent) and call again later. Still an `RpcError` with
 * the server's code, message and data; `cause` is what stopped the client (a
 * handler's error), when something did.
 */
export class UrlElicitationRequiredError extends RpcError {
  override name = 'UrlElicitationRequiredError';
  /** The URL flows the server asked for, each with its `elicitationId`. */
  readonly elicitations: readonly ElicitRequestUrlParams[];

  /** `refusal`: the server's -32042 as the channel read it; this is the same error, its data read. */
  constructor(refusal: RpcError, elicitations: readonly ElicitRequestUrlParams[], options?: ErrorOptions) {
    super(refusal.code, refusal.rpcMessage, refusal.data, refusal.method, options);
    this.elicitations = elicitations;
  }
}

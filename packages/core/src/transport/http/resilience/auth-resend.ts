import { LimitError } from '../../../errors/limit-error.js';
import { discard } from '../../../util/read-body.js';
import { httpError } from '../refused-response.js';

/**
 * Resends of one request an AuthProvider may ask for, fixed (not an option; an
 * OAuthProvider gives up sooner, at its `maxAttempts`). It only guards against
 * a provider that never stops asking.
 */
const MAX_AUTH_RESENDS = 5;

/**
 * Makes way for the resend an AuthProvider asked for after it saw `refused`
 * (the `resends`-th so far for this request): drops the refused body, or, past
 * MAX_AUTH_RESENDS, fails the request with `LimitError('maxAuthRetries', 5)`,
 * the refusal's HttpError as cause. Loaded on demand: only a refused request is
 * sent again.
 */
export async function beforeAuthResend(refused: Response, resends: number, url: URL): Promise<void> {
  if (resends < MAX_AUTH_RESENDS) return discard(refused);
  const cause = await httpError(refused, url);
  throw new LimitError('maxAuthRetries', MAX_AUTH_RESENDS, `${url.href}: too many resends for authorization`, {
    cause,
  });
}

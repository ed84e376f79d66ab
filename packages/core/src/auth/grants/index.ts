import { AuthError } from '../../errors/auth-error.js';
import { authorizationCodeGrant } from './authorization-code.js';
import type { Grant, GrantHandler } from './grant.js';

type Handlers = { readonly [K in Grant['type']]?: GrantHandler<Extract<Grant, { type: K }>> };

/** The grant handlers, by grant type: a new grant is one file beside this one and one line here. */
const HANDLERS: Handlers = {
  authorization_code: authorizationCodeGrant,
};

/** The handler of `grant`, or an AuthError naming a grant this build does not handle. */
export function handlerFor(grant: Grant): GrantHandler {
  const handler = HANDLERS[grant.type] as GrantHandler | undefined;
  if (!handler) throw new AuthError('unsupported_grant', `the ${grant.type} grant is not supported`);
  return handler;
}

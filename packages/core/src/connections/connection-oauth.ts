import { OAuthProvider } from '../auth/oauth-provider.js';
import { AuthorizationGate } from './authorization-gate.js';
import type { ConnectionOptions } from './connection-options.js';
import { prefixedStore } from './prefixed-store.js';

/**
 * The OAuth of one connection: the provider its transport gets as `auth`, and
 * the gate that parks a sign-in until the user's click (only with
 * `oauth.authorize`; without it the provider's flow fails for the user to fix).
 */
export interface ConnectionOAuth {
  readonly provider: OAuthProvider;
  readonly gate: AuthorizationGate | undefined;
}

/**
 * The OAuth of a connection whose config says `oauth: true`. Its tokens go to
 * `oauth.store`, else the connection's `store` under `<prefix>oauth:`.
 * `connection.ts` loads this module on demand, at the first attempt of such a
 * connection: a set of servers without OAuth never loads the provider, the
 * gate or what they run.
 */
export function connectionOAuth(options: ConnectionOptions, prefix: string, onChange: () => void): ConnectionOAuth {
  const { oauth, store, authorization } = options;
  const oauthStore = oauth?.store ?? (store && prefixedStore(store, `${prefix}oauth:`));
  const handler = oauth?.authorize;
  // The provider gets the gate's handler, which parks the flow: the app's runs only from `authorize()`.
  const gate = handler && new AuthorizationGate({ ...authorization, handler, onChange });
  const provider = new OAuthProvider({
    ...oauth,
    ...(oauthStore && { store: oauthStore }),
    ...(gate && { authorize: gate.handler }),
  });
  return { provider, gate };
}

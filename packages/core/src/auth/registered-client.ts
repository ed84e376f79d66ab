/** How a client authenticates at the token endpoint (RFC 7591 §2, RFC 7523 §2.2). */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/**
 * A client registered with one authorization server: pre-registered (passed in
 * `clients`, keyed by the AS issuer) or obtained by Dynamic Client Registration.
 * Plain JSON, so any store can keep it.
 */
export interface ClientCredentials {
  /** The client's id at the authorization server. */
  readonly client_id: string;
  /** The secret of a confidential client (`client_secret_basic`, `client_secret_post`). */
  readonly client_secret?: string;
  /** From DCR: when the secret expires (seconds since the epoch; 0 or absent: never). A new registration follows. */
  readonly client_secret_expires_at?: number;
  /** Default: what the registration said; else basic/post by the AS's list when there is a secret, `none` without. */
  readonly token_endpoint_auth_method?: TokenEndpointAuthMethod;
  /** `private_key_jwt`: the signing key, as a private JWK or a PKCS#8 PEM string. */
  readonly private_key?: JsonWebKey | string;
  /** JWS algorithm of `private_key` (default ES256; RS256, PS256, ES384… as the key allows). */
  readonly alg?: string;
  /** The key id to put in the `private_key_jwt` assertion's header. */
  readonly kid?: string;
}

import * as v from 'valibot';

const StringList = v.array(v.string());

/** RFC 9728 §2 Protected Resource Metadata, as far as a client uses it. */
export const ProtectedResourceMetadataSchema = v.looseObject({
  resource: v.string(),
  authorization_servers: v.optional(StringList),
  scopes_supported: v.optional(StringList),
  bearer_methods_supported: v.optional(StringList),
  dpop_signing_alg_values_supported: v.optional(StringList),
  dpop_bound_access_tokens_required: v.optional(v.boolean()),
});
export type ProtectedResourceMetadata = v.InferOutput<typeof ProtectedResourceMetadataSchema>;

/**
 * RFC 8414 §2 Authorization Server Metadata (OpenID Discovery documents fit too).
 * `authorization_endpoint` is optional: machine grants never use it.
 */
export const AuthorizationServerMetadataSchema = v.looseObject({
  issuer: v.string(),
  authorization_endpoint: v.optional(v.string()),
  token_endpoint: v.string(),
  registration_endpoint: v.optional(v.string()),
  scopes_supported: v.optional(StringList),
  response_types_supported: v.optional(StringList),
  grant_types_supported: v.optional(StringList),
  code_challenge_methods_supported: v.optional(StringList),
  token_endpoint_auth_methods_supported: v.optional(StringList),
  token_endpoint_auth_signing_alg_values_supported: v.optional(StringList),
  client_id_metadata_document_supported: v.optional(v.boolean()),
  authorization_response_iss_parameter_supported: v.optional(v.boolean()),
  dpop_signing_alg_values_supported: v.optional(StringList),
});
export type AuthorizationServerMetadata = v.InferOutput<typeof AuthorizationServerMetadataSchema>;

/** RFC 6749 §5.1 successful token response (`token_type` is compared case-insensitively). */
export const TokenResponseSchema = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.string(),
  expires_in: v.optional(v.union([v.number(), v.pipe(v.string(), v.transform(Number))])),
  refresh_token: v.optional(v.string()),
  scope: v.optional(v.string()),
});
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 error response. */
export const OAuthErrorResponseSchema = v.looseObject({
  error: v.string(),
  error_description: v.optional(v.string()),
  error_uri: v.optional(v.string()),
});

/** RFC 7591 §3.2.1 client information response. */
export const ClientInformationSchema = v.looseObject({
  client_id: v.pipe(v.string(), v.minLength(1)),
  client_secret: v.optional(v.string()),
  client_secret_expires_at: v.optional(v.number()),
  token_endpoint_auth_method: v.optional(v.string()),
});

/**
 * A `WWW-Authenticate: Bearer …` value (RFC 6750 § 3, RFC 9728 § 5.1 for
 * `resource_metadata`). Parameters with undefined values are left out; values
 * are quoted strings with `"` and `\` escaped.
 * @param {Record<string, string | undefined>} params
 */
export function bearerChallenge(params) {
  const parts = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}="${String(value).replaceAll(/["\\]/g, '\\$&')}"`);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}

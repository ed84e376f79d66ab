// An OAuthStore (@mcp/core) over a Workers KV namespace: registered clients,
// tokens and pending authorizations outlive the invocation that made them.

/** Pending authorizations (PKCE verifier, state, issuer) expire on their own: the user had 10 minutes. */
const PENDING_TTL_SECONDS = 600;

/**
 * Every key is prefixed, so one namespace can hold several users (one prefix
 * each) next to other data.
 *
 * KV is eventually consistent across locations (a write may take up to a
 * minute to be seen elsewhere), and rotating refresh tokens are written on
 * every refresh: two invocations refreshing at once can each spend the same
 * refresh token, and the AS then rejects the second. Where that matters (many
 * concurrent calls for one user, or a callback served far from where the flow
 * started), keep the store in a Durable Object, which is consistent and runs one
 * request at a time.
 *
 * @param {KVNamespace} kv
 * @param {string} [prefix]
 * @returns {import('@mcp/core').OAuthStore}
 */
export function kvOAuthStore(kv, prefix = 'oauth:') {
  return {
    async get(key) {
      return (await kv.get(prefix + key, 'json')) ?? undefined;
    },
    async set(key, value) {
      const ttl = key.startsWith('pending:') ? { expirationTtl: PENDING_TTL_SECONDS } : {};
      await kv.put(prefix + key, JSON.stringify(value), ttl);
    },
    async delete(key) {
      await kv.delete(prefix + key);
    },
  };
}

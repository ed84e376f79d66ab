// What one agent keeps in its Durable Object's storage between invocations:
// the MCP session snapshot, the OAuth state (client registration, tokens,
// pending authorizations) and the background tasks it started.

const SESSION_KEY = 'mcp-session';
const TASKS_KEY = 'tasks';
const OAUTH_PREFIX = 'oauth:';

/**
 * An `OAuthStore` (@mcp/core) on Durable Object storage. Unlike KV it is
 * consistent and the object runs one request at a time, so a refresh that
 * rotates the refresh token cannot race another invocation spending it.
 * @param {DurableObjectStorage} storage
 * @returns {import('@mcp/core').OAuthStore}
 */
export function durableOAuthStore(storage) {
  return {
    get: (key) => storage.get(OAUTH_PREFIX + key),
    set: (key, value) => storage.put(OAUTH_PREFIX + key, value),
    delete: async (key) => {
      await storage.delete(OAUTH_PREFIX + key);
    },
  };
}

/**
 * The stored MCP session snapshot (`client.session`), or undefined the first time.
 * @param {DurableObjectStorage} storage
 * @returns {Promise<import('@mcp/core').SessionSnapshot | undefined>}
 */
export function loadSession(storage) {
  return storage.get(SESSION_KEY);
}

/**
 * Stores `snapshot` when it differs from `stored` (the first connect, or a
 * session the client renewed after the server forgot the old one).
 * @param {DurableObjectStorage} storage
 * @param {import('@mcp/core').SessionSnapshot | undefined} snapshot
 * @param {import('@mcp/core').SessionSnapshot | undefined} stored
 */
export async function saveSession(storage, snapshot, stored) {
  if (snapshot && JSON.stringify(snapshot) !== JSON.stringify(stored)) await storage.put(SESSION_KEY, snapshot);
}

/**
 * A background task the agent started and has not yet reported as finished.
 * @typedef {object} StoredTask
 * @property {string} taskId the server's id
 * @property {string} tool the MCP tool it runs
 * @property {string} startedAt ISO time
 */

/**
 * @param {DurableObjectStorage} storage
 * @returns {Promise<StoredTask[]>}
 */
export async function loadTasks(storage) {
  return (await storage.get(TASKS_KEY)) ?? [];
}

/**
 * @param {DurableObjectStorage} storage
 * @param {StoredTask[]} tasks
 */
export function saveTasks(storage, tasks) {
  return storage.put(TASKS_KEY, tasks);
}

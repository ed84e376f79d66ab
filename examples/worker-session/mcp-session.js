// Keeps one MCP session alive across Worker invocations: each invocation resumes
// it from a stored snapshot instead of shaking hands again.
import { Client, StreamableHttpTransport } from '@mcp/core';

const CLIENT_INFO = { name: 'worker-session-example', version: '1.0.0' };

/**
 * Where a snapshot lives between invocations: a KV key, Durable Object storage, …
 * @typedef {object} SnapshotStore
 * @property {() => Promise<import('@mcp/core').SessionSnapshot | null | undefined>} load
 * @property {(snapshot: import('@mcp/core').SessionSnapshot) => Promise<void>} save
 */

/**
 * Runs `work` with a client on the session kept in `store`. The first invocation
 * connects (one `initialize`) and stores `client.session`; later ones pass it as
 * `resume`, so `connect()` sends nothing. If the server has ended the session
 * (HTTP 404), the client shakes hands again by itself and resends the call; the
 * snapshot then names the new session, so it is written back after every run.
 *
 * @template T
 * @param {string} url the server's Streamable HTTP endpoint
 * @param {SnapshotStore} store
 * @param {(client: Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withMcpSession(url, store, work) {
  const stored = (await store.load()) ?? undefined;
  const transport = new StreamableHttpTransport(url, {
    // Nobody would read a standalone GET stream once this invocation returns.
    standaloneStream: false,
    // The session outlives this client: no DELETE on close.
    endSessionOnClose: false,
  });
  const client = new Client(transport, { clientInfo: CLIENT_INFO, ...(stored && { resume: stored }) });
  try {
    await client.connect();
    return await work(client);
  } finally {
    const snapshot = client.session;
    // Write only when it changed (first connect, or a renewed session): KV allows
    // about one write per second per key.
    if (snapshot && JSON.stringify(snapshot) !== JSON.stringify(stored)) await store.save(snapshot);
    await client.close();
  }
}

/**
 * A snapshot store on a KV namespace, one key per MCP server.
 * @param {KVNamespace} kv
 * @param {string} url
 * @returns {SnapshotStore}
 */
export function kvSnapshotStore(kv, url) {
  const key = `mcp-session:${url}`;
  return {
    load: () => kv.get(key, 'json'),
    save: (snapshot) => kv.put(key, JSON.stringify(snapshot)),
  };
}

/**
 * A snapshot store on a Durable Object's storage.
 * @param {DurableObjectStorage} storage
 * @returns {SnapshotStore}
 */
export function durableSnapshotStore(storage) {
  return {
    load: () => storage.get('mcp-session'),
    save: (snapshot) => storage.put('mcp-session', snapshot),
  };
}

// One user's MCP servers: a Servers set (@mcp/core/connections) over the user's
// Durable Object storage. The set keeps each server's config, session snapshot,
// era verdict and OAuth state there, so an object that wakes from hibernation
// or starts after a deploy resumes every session with no handshake and signs in
// to nothing again.
import { LimitError, OAuthProvider } from '@mcp/core';
import { ConnectionError, DurableObjectStore, prefixedStore, Servers } from '@mcp/core/connections';
import { envLimit } from './env-limit.js';

/** Servers one user may hold, the operator's `main` included (the set's `maxServers`); `MAX_SERVERS` changes it. */
export const MAX_SERVERS = 8;

/**
 * Longest a request waits for the user's servers to settle, in ms: connected, waiting for sign-in or
 * failed. A server still connecting after it is left out of that message's tools.
 */
export const CONNECT_WAIT_MS = 10_000;

/** The name of the operator's server (`MCP_URL`), in every user's set; users cannot add, replace or remove it. */
export const OPERATOR_SERVER = 'main';

/** Where the set keeps its records in the object's storage (`mcp:config:<name>`, `mcp:session:<name>`, `mcp:oauth:…`). */
const PREFIX = 'mcp:';

const CLIENT_INFO = { name: 'worker-agent-example', version: '1.0.0' };

/**
 * @typedef {object} ServersEnv
 * @property {string} [MCP_URL] the operator's server, in every user's set as `main`
 * @property {string} [MAX_SERVERS] overrides {@link MAX_SERVERS} (a positive integer)
 */

/**
 * The OAuth options of every server of a user's set: one redirect URI for every user, since the
 * pending authorization in the user's own object binds a callback to that user.
 * @param {string} origin the Worker's origin
 * @returns {import('@mcp/core').OAuthOptions}
 */
function oauthOptions(origin) {
  return {
    redirectUri: `${origin}/callback`,
    clientMetadata: { client_name: 'MCP agent Worker example', application_type: 'web' },
  };
}

/**
 * The user's set, restored from `storage` and connecting: every stored server, and the operator's
 * `MCP_URL` as `main` (added, or moved to a new URL after a deploy changed it).
 * @param {DurableObjectStorage} storage the object's `ctx.storage`
 * @param {ServersEnv} env
 * @param {string} origin the Worker's origin, for the OAuth redirect URI
 */
export async function openServers(storage, env, origin) {
  const servers = await Servers.open({
    store: new DurableObjectStore(storage),
    prefix: PREFIX,
    maxServers: envLimit(env.MAX_SERVERS, MAX_SERVERS),
    connection: {
      client: { clientInfo: CLIENT_INFO },
      // Nobody would read a standalone GET stream between requests, and an open one keeps the object awake.
      http: { standaloneStream: false },
      // No elicitation or sampling: nobody is there to answer between requests.
      pending: false,
      oauth: {
        ...oauthOptions(origin),
        // Never called: the Worker calls no connection's authorize(). A server that wants sign-in waits in
        // `authorizing` with its URL, which the Worker hands to the user; /callback completes it.
        authorize: () => Promise.reject(new Error('the Worker returns the authorization URL to the user')),
      },
    },
    onError: (error) => console.warn(`servers: ${error.message}`),
  });
  const main = servers.get(OPERATOR_SERVER);
  if (env.MCP_URL && !main) await servers.add({ name: OPERATOR_SERVER, url: env.MCP_URL, oauth: true });
  else if (env.MCP_URL && main && String(main.config.url) !== env.MCP_URL) {
    await servers.update(OPERATOR_SERVER, { url: env.MCP_URL, oauth: true });
  }
  return servers;
}

/**
 * What the caller sees of one server: its state, and for `authorizing` the URL the user signs in at.
 * @param {import('@mcp/core/connections').Servers} servers
 * @param {import('@mcp/core/connections').ConnectionSnapshot} snapshot
 */
export function serverView(servers, snapshot) {
  const { name, state, tools } = snapshot;
  return {
    name,
    url: String(servers.get(name)?.config.url ?? ''),
    status: state.status,
    ...(state.status === 'authorizing' && state.authorizationUrl && { authorize: state.authorizationUrl.href }),
    ...((state.status === 'failed' || state.status === 'reconnecting') && { error: messageOf(state.error) }),
    tools: tools.map((tool) => tool.name),
  };
}

/**
 * Each server waiting for the user to sign in, by name: where to send the user.
 * @param {import('@mcp/core/connections').ServersSnapshot} snapshot
 * @returns {Record<string, string>}
 */
export function authorizations(snapshot) {
  const waiting = {};
  for (const { name, state } of snapshot.servers) {
    if (state.status === 'authorizing' && state.authorizationUrl) waiting[name] = state.authorizationUrl.href;
  }
  return waiting;
}

/**
 * Finishes the sign-in a callback answers. The connection whose flow issued its `state` takes it
 * and redeems the code; the request waits for that connection (at most {@link CONNECT_WAIT_MS}).
 * When no live connection waits for it (the object was evicted while the user signed in), the
 * pending authorization stored in this object finishes it, and the servers waiting for sign-in
 * connect again with the stored tokens. A `state` this user's flows never issued is found nowhere
 * and throws, with nothing stored and no flow touched.
 * @param {DurableObjectStorage} storage
 * @param {import('@mcp/core/connections').Servers} servers
 * @param {URL} url the callback's URL
 */
export async function finishCallback(storage, servers, url) {
  const waiting = servers.list().find((connection) => connection.completeAuthorization(url));
  if (waiting) {
    await settled(waiting.connect(), CONNECT_WAIT_MS);
    return;
  }
  const provider = new OAuthProvider({
    ...oauthOptions(url.origin),
    store: prefixedStore(new DurableObjectStore(storage), `${PREFIX}oauth:`),
  });
  await provider.finishAuthorization(url);
  const stale = servers.list().filter((connection) => connection.getSnapshot().state.status === 'authorizing');
  // Their parked flows are for authorizations nobody will answer now: connect afresh, with the tokens.
  await Promise.all(stale.map((connection) => servers.update(connection.name, connection.config)));
}

/**
 * `promise`, or undefined after `ms`; rejects with what it rejects with.
 * @param {Promise<void>} promise
 * @param {number} ms
 */
async function settled(promise, ms) {
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why a request about the set failed, as a status and message for the caller.
 * @param {unknown} error
 */
export function setRefusal(error) {
  const message = messageOf(error);
  if (error instanceof ConnectionError && error.code === 'invalid_config') return { status: 400, error: message };
  if (error instanceof LimitError && error.limit === 'maxConfigBytes') return { status: 413, error: message };
  if (error instanceof LimitError && error.limit === 'maxServers') return { status: 409, error: message };
  return { status: 500, error: message };
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

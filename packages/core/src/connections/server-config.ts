import type { Transport } from '../transport/transport.js';
import { ConnectionError } from './connection-error.js';

/**
 * One MCP server as an app knows it: a name and where it is. Only the JSON
 * parts (`name`, `url`, `headers`, `oauth`) are ever persisted; a `transport`
 * factory (stdio, an in-memory pair) lives as long as the program that made it.
 */
export interface ServerConfig {
  /** The server's name in its set, and its key in a store (`session:<name>`); any non-empty string. */
  readonly name: string;
  /** The Streamable HTTP endpoint (falls back to HTTP+SSE by itself). Give this or `transport`. */
  readonly url?: string | URL;
  /**
   * Makes a fresh transport for each connection attempt, instead of `url`
   * (stdio, a worker port). Called again on every reconnect: a transport is used once.
   */
  readonly transport?: () => Transport;
  /** Sent on every HTTP request (an API key, say); ignored with `transport`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The server needs OAuth: the connection builds an `OAuthProvider` from `ConnectionOptions.oauth`. */
  readonly oauth?: boolean;
}

/** `config` checked at the edge: a usable name and exactly one of `url` and `transport`. */
export function checkServerConfig(config: ServerConfig): ServerConfig {
  const invalid = (problem: string) => new ConnectionError('invalid_config', `server config: ${problem}`);
  if (typeof config !== 'object' || config === null) throw invalid('not an object');
  if (typeof config.name !== 'string' || config.name === '') throw invalid('`name` must be a non-empty string');
  const hasUrl = config.url !== undefined;
  const hasTransport = config.transport !== undefined;
  if (hasUrl === hasTransport) throw invalid(`${config.name}: give exactly one of \`url\` and \`transport\``);
  if (hasTransport && typeof config.transport !== 'function') {
    throw invalid(`${config.name}: \`transport\` must be a function that makes a transport`);
  }
  if (hasUrl && !parses(String(config.url))) {
    throw invalid(`${config.name}: \`url\` is not a URL: ${JSON.stringify(String(config.url))}`);
  }
  return config;
}

/** `URL.canParse`, which older browsers lack. */
function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

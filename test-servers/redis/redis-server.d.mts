/** Types of redis-server.mjs, for TypeScript tests anywhere in the repository. */

/** The redis-server binary the tests run: REDIS_SERVER_PATH, else /usr/bin/redis-server. */
export function redisServerPath(): string;

/** A running redis-server: its URL and port, and how to stop it. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/** Starts redis-server on a free loopback port with nothing persisted; resolves once it accepts connections. */
export function startRedisServer(): Promise<RedisServer>;

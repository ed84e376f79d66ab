import { timerDelay } from '../../util/timers.js';
import { type LeaseOptions, leaseBounds } from '../lease.js';
import type { Store } from '../store.js';
import { StoreError } from '../store-error.js';
import { decodeStoreValue, encodeStoreValue } from '../store-json.js';

/**
 * The client a {@link RedisStore} sends its commands through, described by shape
 * so that no Redis library is a dependency: a node-redis client (v4 and later:
 * `sendCommand(['GET', key])`) or an ioredis client (`call('GET', key)`) fits as
 * it is. Replies are read as both give them, in RESP2 or RESP3: a string, null, a number.
 */
export type RedisCommandClient =
  | {
      /** node-redis: sends one command, its name first (`['SET', key, value]`), and resolves to the reply. */
      sendCommand(args: string[]): Promise<unknown>;
    }
  | {
      /** ioredis: sends the command `command` with `args`, and resolves to the reply. */
      call(command: string, ...args: string[]): Promise<unknown>;
    };

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions extends LeaseOptions {
  /** Put before every key this store writes (default none): several apps can share one Redis. */
  readonly prefix?: string;
}

/** The first and the longest pause between two tries for a held lock (ms); each pause is half again the last. */
const POLL_FIRST_MS = 10;
const POLL_MAX_MS = 250;

/** Stores `ARGV[3]` under `KEYS[2]` (or deletes it when `ARGV[2]` is 0) only while `KEYS[1]` holds our token `ARGV[1]`. */
const FENCED_WRITE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '1' then redis.call('SET', KEYS[2], ARGV[3]) else redis.call('DEL', KEYS[2]) end
return 1`;
/** Deletes the lock `KEYS[1]` only while it holds our token `ARGV[1]`: never another holder's. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A store in Redis, shared by every process that uses the same Redis and prefix:
 * how a Node server or a serverless backend that runs as many instances shares
 * sessions and OAuth tokens. `update` is atomic across all of them.
 *
 * Values are JSON strings under `<prefix>v:<key>`. `update` takes the lock
 * `<prefix>l:<key>` (`SET … NX PX leaseMs` with a random token), polls for it
 * at most `lockWaitMs`, and writes what `change` returned in one script that
 * first checks the lock still holds its token, so a change that outlived its
 * lease never writes over the next holder's work; a second script releases the
 * lock only if it is still ours. Something other than JSON under a key (written
 * by someone else) reads as a `StoreError` (`invalid_value`); `update` then
 * does not run `change`.
 */
export class RedisStore implements Store {
  readonly #send: (args: string[]) => Promise<unknown>;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #lockWaitMs: number;

  /** A store sending its commands through `client`. */
  constructor(client: RedisCommandClient, options: RedisStoreOptions = {}) {
    this.#send =
      'sendCommand' in client
        ? (args) => client.sendCommand(args)
        : ([command = '', ...args]) => client.call(command, ...args);
    this.#prefix = options.prefix ?? '';
    ({ leaseMs: this.#leaseMs, lockWaitMs: this.#lockWaitMs } = leaseBounds(options, 'RedisStoreOptions'));
  }

  /** The value under `key`, or undefined; a `StoreError` when what is there is not JSON. */
  async get(key: string): Promise<unknown> {
    let reply: unknown;
    try {
      reply = await this.#send(['GET', this.#valueKey(key)]);
    } catch (error) {
      // A key of another type (a list, a hash) is someone else's: as garbage, not as a failure of Redis.
      if (!String((error as Error | undefined)?.message).startsWith('WRONGTYPE')) throw error;
      throw new StoreError('invalid_value', key, `what is stored under ${key} is not a string`, { cause: error });
    }
    if (reply === null || reply === undefined) return undefined;
    if (typeof reply !== 'string')
      throw new StoreError('invalid_value', key, `Redis answered GET ${key} with no string`);
    return decodeStoreValue(key, reply);
  }

  /** Stores `value` as JSON under `key`; undefined deletes it. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.delete(key);
    await this.#send(['SET', this.#valueKey(key), encodeStoreValue(key, value)]);
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    await this.#send(['DEL', this.#valueKey(key)]);
  }

  /** Runs `change` on the value under `key` while holding the key's lock in Redis, and stores its result. */
  async update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    const lock = `${this.#prefix}l:${key}`;
    const token = crypto.randomUUID();
    await this.#acquire(key, lock, token);
    const leaseEnds = Date.now() + this.#leaseMs;
    try {
      const next = await change(await this.get(key));
      const write = next === undefined ? ['0', ''] : ['1', encodeStoreValue(key, next)];
      const written = await this.#send(['EVAL', FENCED_WRITE, '2', lock, this.#valueKey(key), token, ...write]);
      if (written !== 1) {
        throw new StoreError(
          'lease_expired',
          key,
          `the update of ${key} ran past its ${this.#leaseMs} ms lease (leaseMs) by ${Date.now() - leaseEnds} ms; its result was not stored`,
        );
      }
      return next;
    } finally {
      // A release that fails (Redis gone meanwhile) must not hide the outcome: the lease frees the lock.
      await this.#send(['EVAL', RELEASE, '1', lock, token]).catch(() => {});
    }
  }

  #valueKey(key: string): string {
    return `${this.#prefix}v:${key}`;
  }

  /** Takes `lock` with `token`, trying again after a growing pause until `lockWaitMs` has passed. */
  async #acquire(key: string, lock: string, token: string): Promise<void> {
    const deadline = Date.now() + this.#lockWaitMs;
    for (let pause = POLL_FIRST_MS; ; pause = Math.min(pause * 1.5, POLL_MAX_MS)) {
      const taken = await this.#send(['SET', lock, token, 'NX', 'PX', String(this.#leaseMs)]);
      if (taken === 'OK') return;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StoreError(
          'lock_timeout',
          key,
          `another instance held the lock of ${key} for more than ${this.#lockWaitMs} ms (lockWaitMs)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, timerDelay(Math.min(pause, left))));
    }
  }
}

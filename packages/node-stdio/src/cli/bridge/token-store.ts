import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OAuthStore } from '@mcp/core';
import { takeLock } from '../../private-files/lock-file.js';
import { PrivateDirectory } from '../../private-files/private-directory.js';
import type { PrivatePlace } from '../../private-files/private-files.js';
import { TokenStoreError } from './token-store-error.js';

/**
 * Where `mcp bridge` keeps OAuth state between runs unless `--token-store`
 * says: `$XDG_CONFIG_HOME/mcp/oauth`, else `~/.config/mcp/oauth` (on every
 * platform: one place to document and to wipe).
 */
export function defaultTokenDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'mcp', 'oauth');
}

/** How the directory checks name this store in their messages, and what they throw. */
const TOKEN_STORE: PrivatePlace = {
  noun: 'token store',
  fileNoun: 'token file',
  option: '--token-store',
  refuse: (path, message) => new TokenStoreError(path, message),
};

/** Where the loopback redirect's port is kept, beside what OAuth keeps. */
const LOOPBACK_PORT_KEY = 'mcp-bridge:loopbackPort';

/** How long a write waits for another bridge's lock on the same file (ms) unless the store is told otherwise. */
export const DEFAULT_LOCK_WAIT = 10_000;
/** The longest a refresh holds the refresh lock (ms) when its tokens are never written (its caller gave up). */
const REFRESH_HOLD = 30_000;
/**
 * How many refresh tokens a store remembers the key of (the newest): one per
 * issuer and resource in the file, and the few a refresh under way may still send.
 */
const REFRESH_TOKENS_NOTED = 64;

/** Options of {@link FileOAuthStore}. */
export interface FileOAuthStoreOptions {
  /** How long a write or a refresh waits for another bridge's lock, in ms (default {@link DEFAULT_LOCK_WAIT}). */
  readonly lockWaitMs?: number;
}

/**
 * An `OAuthStore` in one JSON file per MCP server URL (named by a hash of it)
 * inside `directory`: the registered client, tokens and pending state survive
 * the process, so the next run of the bridge needs no browser while its tokens
 * (or refresh token) are good.
 *
 * Several bridges may share the file. Each `get` reads it; each `set` or
 * `delete` changes its one key in what the file holds then, under a lock file
 * (`<file>.lock`, created exclusively; waited for at most `lockWaitMs`, then
 * the write fails), so one bridge never undoes another's sign-in. The file is
 * written 0600 through a temporary of a random name opened exclusively (never
 * through a link someone planted) and renamed into place, so a crash never
 * leaves half a file.
 *
 * Nothing is read before the directory is checked: made 0700 when missing,
 * narrowed to 0700 when group or others may use it, refused when it is a link
 * or another user's. Each read then opens the file without following a link
 * and refuses, before parsing it, one that is not a regular file of ours,
 * mode 0600, with one name: tokens someone else planted are never sent
 * (see private-files.ts; Windows, without uids, is checked for links only).
 */
export class FileOAuthStore implements OAuthStore {
  readonly file: string;
  readonly #directory: PrivateDirectory;
  /** The file's name in the directory. */
  readonly #name: string;
  readonly #lockWaitMs: number;
  /** The key each refresh token this store handed out was stored under, to refresh it there only. */
  readonly #refreshTokenKeys = new Map<string, string>();
  /** Releases the refresh lock this store holds, if any: once the refreshed tokens are written. */
  #refreshing: (() => Promise<void>) | undefined;

  constructor(directory: string, serverUrl: URL, options: FileOAuthStoreOptions = {}) {
    this.#directory = new PrivateDirectory(directory, TOKEN_STORE);
    this.#lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT;
    this.#name = `${sha256(serverUrl.href)}.json`;
    this.file = join(directory, this.#name);
  }

  async get(key: string): Promise<unknown> {
    const value = (await this.#read())[key];
    this.#noteRefreshToken(key, value);
    return value;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.#change((entries) => {
      entries[key] = value;
    });
    this.#noteRefreshToken(key, value);
    if (key.startsWith('tokens:')) await this.#endRefresh();
  }

  async delete(key: string): Promise<void> {
    await this.#change((entries) => {
      delete entries[key];
    });
  }

  /** The loopback redirect port this server's registration names, saved by {@link useLoopbackPort}. */
  async loopbackPort(): Promise<number | undefined> {
    const port = await this.get(LOOPBACK_PORT_KEY);
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  }

  /**
   * The loopback redirect port this run listens on. The registered clients in
   * the file were registered with the saved port's redirect URI (the
   * registration itself does not say): on another port they are forgotten, so
   * the next authorization registers a client with this one, and this port is
   * saved for the next runs (RFC 8252 §7.3 lets a loopback port vary, but not
   * every authorization server does).
   */
  async useLoopbackPort(port: number): Promise<void> {
    // Written only on a change: most runs find their port saved.
    if ((await this.get(LOOPBACK_PORT_KEY)) === port) return;
    await this.#change((entries) => {
      for (const key of Object.keys(entries)) if (key.startsWith('client:')) delete entries[key];
      entries[LOOPBACK_PORT_KEY] = port;
    });
  }

  /**
   * `fetch` for the OAuth requests, refreshes serialised across the bridges
   * sharing this file: a `refresh_token` grant first takes `<file>.refresh.lock`
   * (held until the refreshed tokens are written, at most 30 s), then goes out
   * with the refresh token the file holds now, not the one this bridge read
   * before another bridge rotated it (the authorization server would refuse that
   * one, and this bridge would open the browser). The substitute is the one
   * stored under the key the sent token was read from (one issuer and
   * resource), never another authorization server's.
   */
  refreshingFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
    return async (input, init) => {
      const form = typeof init?.body === 'string' ? new URLSearchParams(init.body) : undefined;
      const sent = form?.get('grant_type') === 'refresh_token' ? form.get('refresh_token') : null;
      if (!form || sent === null) return base(input, init);
      await this.#endRefresh();
      await this.#directory.ready();
      const release = await takeLock(`${this.file}.refresh.lock`, this.#lockWaitMs);
      // A release that fails here (the lock moved under us) leaves a lock the next bridge takes over once stale.
      const timer = setTimeout(() => this.#endRefresh().catch(() => {}), REFRESH_HOLD);
      timer.unref();
      this.#refreshing = async () => {
        clearTimeout(timer);
        await release();
      };
      try {
        const current = this.#rotatedRefreshToken(await this.#read(), sent);
        if (current !== undefined) form.set('refresh_token', current);
        const response = await base(input, { ...init, body: form.toString() });
        if (!response.ok) await this.#endRefresh();
        return response;
      } catch (error) {
        await this.#endRefresh();
        throw error;
      }
    };
  }

  async #endRefresh(): Promise<void> {
    const release = this.#refreshing;
    this.#refreshing = undefined;
    await release?.();
  }

  /**
   * The refresh token another bridge stored in place of `sent` (rotated): the
   * one now under the key `sent` was read from, when that differs. A token
   * this store never handed out, or whose key holds none now, is sent as it is.
   */
  #rotatedRefreshToken(entries: Record<string, unknown>, sent: string): string | undefined {
    const key = this.#refreshTokenKeys.get(sent);
    if (key === undefined) return undefined;
    const current = (entries[key] as { refresh_token?: unknown } | undefined)?.refresh_token;
    return typeof current === 'string' && current !== sent ? current : undefined;
  }

  async #read(): Promise<Record<string, unknown>> {
    const text = await this.#directory.read(this.#name);
    const parsed: unknown = text === undefined ? {} : safeJson(text);
    // A file we cannot read as our map starts over: the worst case is one more sign-in.
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
  }

  async #change(edit: (entries: Record<string, unknown>) => void): Promise<void> {
    await this.#directory.ready();
    const release = await takeLock(`${this.file}.lock`, this.#lockWaitMs);
    try {
      const entries = await this.#read();
      edit(entries);
      await this.#directory.write(this.#name, JSON.stringify(entries));
    } finally {
      await release();
    }
  }

  /** Remembers under which key `value` (tokens, if it holds a refresh token) is stored. */
  #noteRefreshToken(key: string, value: unknown): void {
    const refreshToken = (value as { refresh_token?: unknown } | undefined)?.refresh_token;
    if (!key.startsWith('tokens:') || typeof refreshToken !== 'string') return;
    this.#refreshTokenKeys.delete(refreshToken);
    this.#refreshTokenKeys.set(refreshToken, key);
    for (const oldest of this.#refreshTokenKeys.keys()) {
      if (this.#refreshTokenKeys.size <= REFRESH_TOKENS_NOTED) break;
      this.#refreshTokenKeys.delete(oldest);
    }
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

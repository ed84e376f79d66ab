import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OAuthStore } from '@mcp/core';

/**
 * Where `mcp bridge` keeps OAuth state between runs unless `--token-store`
 * says: `$XDG_CONFIG_HOME/mcp/oauth`, else `~/.config/mcp/oauth` (on every
 * platform: one place to document and to wipe).
 */
export function defaultTokenDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'mcp', 'oauth');
}

/**
 * An `OAuthStore` in one JSON file per MCP server URL (named by a hash of it)
 * inside `directory`: the registered client, tokens and pending state survive
 * the process, so the next run of the bridge needs no browser while its tokens
 * (or refresh token) are good. The directory is created 0700 and the file
 * written 0600, through a temporary file renamed into place, so a crash never
 * leaves half a file. Two bridges to the same server at once: the last write wins.
 */
export class FileOAuthStore implements OAuthStore {
  readonly file: string;
  readonly #directory: string;
  #entries: Record<string, unknown> | undefined;
  /** Writes run one after another, each writing the whole map as it stands. */
  #writing: Promise<void> = Promise.resolve();

  constructor(directory: string, serverUrl: URL) {
    this.#directory = directory;
    const name = createHash('sha256').update(serverUrl.href).digest('hex').slice(0, 32);
    this.file = join(directory, `${name}.json`);
  }

  async get(key: string): Promise<unknown> {
    return structuredClone((await this.#load())[key]);
  }

  async set(key: string, value: unknown): Promise<void> {
    (await this.#load())[key] = structuredClone(value);
    await this.#save();
  }

  async delete(key: string): Promise<void> {
    const entries = await this.#load();
    if (!(key in entries)) return;
    delete entries[key];
    await this.#save();
  }

  async #load(): Promise<Record<string, unknown>> {
    if (this.#entries) return this.#entries;
    let text: string | undefined;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const parsed: unknown = text === undefined ? {} : safeJson(text);
    // A file we cannot read as our map starts over: the worst case is one more sign-in.
    this.#entries ??= typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
    return this.#entries;
  }

  #save(): Promise<void> {
    const text = JSON.stringify(this.#entries ?? {});
    const write = this.#writing.then(async () => {
      await mkdir(this.#directory, { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await writeFile(temporary, text, { mode: 0o600 });
      // The mode of writeFile applies only to a new file; a leftover temporary keeps its own.
      await chmod(temporary, 0o600);
      await rename(temporary, this.file);
    });
    // A failed write fails its caller, not every later one.
    this.#writing = write.catch(() => {});
    return write;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

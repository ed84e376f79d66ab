import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type PrivatePlace, preparePrivateDirectory, readPrivateFile } from './private-files.js';

/**
 * A directory of secrets (tokens, sessions) and the files in it, read and
 * written only once the directory passed its checks ({@link preparePrivateDirectory}).
 */
export class PrivateDirectory {
  readonly path: string;
  readonly #place: PrivatePlace;
  /** Set by the first access: every read and write waits for the directory check. */
  #ready: Promise<void> | undefined;

  constructor(path: string, place: PrivatePlace) {
    this.path = path;
    this.#place = place;
  }

  /** Checks the directory (creating it 0700 when missing), once while it passes. */
  ready(): Promise<void> {
    if (!this.#ready) {
      const ready = preparePrivateDirectory(this.path, this.#place);
      // A failed check is not remembered: the user may fix the directory while the process runs.
      ready.catch(() => {
        if (this.#ready === ready) this.#ready = undefined;
      });
      this.#ready = ready;
    }
    return this.#ready;
  }

  /** The text of `name` in the directory, or undefined when there is none; refused as readPrivateFile refuses. */
  async read(name: string, place = this.#place): Promise<string | undefined> {
    await this.ready();
    return readPrivateFile(join(this.path, name), place);
  }

  /**
   * Replaces `name` with `text`, 0600: written to a temporary of a random name
   * opened exclusively (never through a link someone planted) and renamed into
   * place, so a reader sees the old file or the new one, never half of one.
   */
  async write(name: string, text: string): Promise<void> {
    await this.ready();
    const temporary = join(this.path, `.${randomUUID()}.tmp`);
    // 'wx': created here, or the write fails; an existing file or link is never written through.
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, join(this.path, name)).catch(async (error: unknown) => {
      await rm(temporary, { force: true });
      throw error;
    });
  }
}

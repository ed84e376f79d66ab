/**
 * A real pseudo-terminal for the `mcp` bin: a tmux server of its own (`-S`, a
 * socket in a temporary directory of this pane's), one detached session running
 * the command, keys sent with `send-keys`, the screen read with `capture-pane`.
 * stdout of the command goes to a file, so a test reads the result apart from
 * what the terminal showed (stdin and stderr stay the terminal).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** How often the screen is read while waiting for something on it (ms). */
const POLL_MS = 50;
/** How long `waitFor` waits by default (ms): far above the ~1 s a command here takes. */
const WAIT_MS = 10_000;

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** One command running in its own tmux server. Always `kill()` it (afterEach). */
export class Pane {
  readonly #socket: string;
  readonly #dir: string;

  private constructor(socket: string, dir: string) {
    this.#socket = socket;
    this.#dir = dir;
  }

  /**
   * Starts `argv` in a `width`×`height` terminal. When it exits, the pane shows
   * `[exit <status>]` and stays, so the screen can still be read.
   */
  static async start(argv: readonly string[], { width = 120, height = 40 } = {}): Promise<Pane> {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-pty-'));
    const pane = new Pane(join(dir, 'tmux.sock'), dir);
    const line = `${argv.map(quote).join(' ')} > ${quote(pane.stdoutFile)}; echo "[exit $?]"; sleep 600`;
    await pane.#tmux('new-session', '-d', '-s', 'main', '-x', String(width), '-y', String(height), line);
    return pane;
  }

  /** Where the command's stdout goes. */
  get stdoutFile(): string {
    return join(this.#dir, 'stdout.txt');
  }

  /** What the command wrote to stdout so far. */
  stdout(): string {
    try {
      return readFileSync(this.stdoutFile, 'utf8');
    } catch {
      return '';
    }
  }

  /** The screen's text (scrollback included), trailing blank lines dropped. */
  async screen(): Promise<string> {
    const { stdout } = await this.#tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', 'main');
    return stdout.replace(/\s+$/, '');
  }

  /** The window title the terminal holds (a program may set it with an OSC sequence). */
  async title(): Promise<string> {
    const { stdout } = await this.#tmux('display-message', '-p', '-t', 'main', '#{pane_title}');
    return stdout.trim();
  }

  /** Types `text` literally, then Enter unless `enter` is false. */
  async type(text: string, { enter = true } = {}): Promise<void> {
    if (text !== '') await this.#tmux('send-keys', '-t', 'main', '-l', text);
    if (enter) await this.keys('Enter');
  }

  /** Sends tmux key names: `Enter`, `C-u` (erase the line), `C-d` (end of input). */
  async keys(...names: string[]): Promise<void> {
    await this.#tmux('send-keys', '-t', 'main', ...names);
  }

  /** Waits until the screen matches `pattern` and returns it; fails with the screen after `timeout` ms. */
  async waitFor(pattern: RegExp, timeout = WAIT_MS): Promise<string> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits for the command to exit and returns its status. */
  async exitCode(timeout = WAIT_MS): Promise<number> {
    const screen = await this.waitFor(/\[exit \d+\]/, timeout);
    return Number(/\[exit (\d+)\]/.exec(screen)?.[1]);
  }

  /** Ends the tmux server (and the command with it) and removes its socket and the stdout file. */
  async kill(): Promise<void> {
    await this.#tmux('kill-server').catch(() => {});
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #tmux(...args: string[]) {
    return exec('tmux', ['-S', this.#socket, '-f', '/dev/null', ...args], { timeout: WAIT_MS });
  }
}

import { type ChildProcess, spawn } from 'node:child_process';
import { ClientClosedError, type LimitError, TransportError } from '@mcp/core';
import {
  type JsonRpcMessage,
  MessageQueue,
  type Transport,
  type TransportEvent,
  type TransportHooks,
  timerDelay,
} from '@mcp/core/transport';
import { childEnvironment } from './child-environment.js';
import { LineReader } from './line-reader.js';
import { commandLabel, type ExitStatus, exitError, notJsonError, oversizedError, startError } from './server-errors.js';
import { shutdownChild } from './shutdown.js';

/** How to launch an MCP server as a child process, and the limits that guard the pipe. */
export interface StdioTransportOptions {
  /** The executable, run without a shell: no quoting, globbing or injection. */
  readonly command: string;
  /** Its arguments, passed as they are. */
  readonly args?: readonly string[];
  /**
   * Variables for the server, on top of the few it inherits: PATH, HOME, USER,
   * LOGNAME, SHELL, TERM (on Windows APPDATA, HOMEDRIVE, HOMEPATH, LOCALAPPDATA,
   * PATH, PROCESSOR_ARCHITECTURE, PROGRAMFILES, SYSTEMDRIVE, SYSTEMROOT, TEMP,
   * USERNAME, USERPROFILE). Name here every secret the server needs.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Hand the server all of our environment (then `env` on top) instead of the
   * small set above. Default false: a server is not trusted with every API key
   * and credential of the process that starts it.
   */
  readonly inheritEnv?: boolean;
  /** Its working directory (default: ours). */
  readonly cwd?: string;
  /**
   * The server's stderr is log text (2025-11-25, Transports, stdio), never a
   * sign of failure: passed to our stderr (`'inherit'`, the default), dropped,
   * or handed to a callback one line at a time.
   */
  readonly stderr?: 'inherit' | 'ignore' | ((line: string) => void);
  /** Largest stdout line accepted; a longer one ends the connection with a `LimitError`. Default 64 MiB. */
  readonly maxMessageBytes?: number;
  /** Milliseconds `close()` waits at each shutdown step before escalating. Default 2000. */
  readonly closeTimeout?: number;
}

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const DEFAULT_CLOSE_TIMEOUT = 2000;
/** stderr lines are logs: longer ones are split rather than buffered without bound. */
const MAX_STDERR_LINE_BYTES = 64 * 1024;

/**
 * Talks to an MCP server over its stdin/stdout: one compact JSON message per
 * line each way (2025-11-25 and 2026-07-28, Transports, stdio). The process is
 * started by the first `send()` or `messages()`; when it dies, `messages()`
 * throws a `TransportError` naming the command and how it ended, and when it
 * writes a line past `maxMessageBytes`, a `LimitError` (the child is stopped).
 */
export class StdioTransport implements Transport, TransportHooks {
  readonly #options: StdioTransportOptions;
  readonly #label: string;
  readonly #inbound = new MessageQueue<TransportEvent>();
  /** Rejecters of sends still waiting on their write, failed together when the child dies. */
  readonly #pendingSends = new Set<(error: Error) => void>();
  #child: ChildProcess | undefined;
  /** Settles on 'exit' (or on 'close' after a failed start): the process is gone. */
  #exited: Promise<void> | undefined;
  /** Settles on 'close': the process is gone and its pipes are drained. */
  #drained: Promise<void> | undefined;
  #status: ExitStatus | undefined;
  /** Why the connection is dead: the child ended or failed (`TransportError`), or a line passed `maxMessageBytes`. */
  #failure: TransportError | LimitError | undefined;
  #closeRequested = false;
  #stopping: Promise<void> | undefined;

  /** A transport to the server `options.command` starts; the process starts when the client connects. */
  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.#label = commandLabel(options.command, options.args ?? []);
  }

  /**
   * Names the server configuration, so the Client's era verdict (2026-07-28
   * versioning) is kept across restarts of the same command, as the spec allows.
   */
  get serverKey(): string {
    const { command, args = [], cwd, env } = this.#options;
    return `stdio:${JSON.stringify([command, args, cwd ?? null, env ?? null])}`;
  }

  /** The child's process id, once started (undefined before, or if it could not start). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exitStatus(): ExitStatus | undefined {
    return this.#status;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closeRequested)
      return Promise.reject(new ClientClosedError(`mcp server "${this.#label}": transport closed`));
    this.#start();
    if (this.#failure) return Promise.reject(this.#failure);
    const stdin = this.#child?.stdin;
    if (!stdin) return Promise.reject(new TransportError(`mcp server "${this.#label}" has no stdin`));
    // Below the pipe's high-water mark the line is handed off at once: no
    // per-write callback. Above it, senders wait for one shared 'drain', so
    // awaiting senders still feel backpressure. A write error surfaces as the
    // child's failure (EPIPE comes with its exit), which rejects waiting sends.
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        this.#pendingSends.delete(fail);
        reject(error);
      };
      this.#pendingSends.add(fail);
      stdin.once('drain', () => {
        if (this.#pendingSends.delete(fail)) resolve();
      });
    });
  }

  messages(): AsyncIterable<TransportEvent> {
    if (!this.#closeRequested) this.#start();
    return this.#inbound;
  }

  /** Ends the iteration normally, then stops the child (see `shutdownChild`). Idempotent. */
  close(): Promise<void> {
    this.#closeRequested = true;
    this.#inbound.end();
    return this.#stop();
  }

  #start(): void {
    if (this.#child || this.#failure) return;
    const { command, args = [], env, cwd, stderr = 'inherit', inheritEnv = false } = this.#options;
    let child: ChildProcess;
    try {
      child = spawn(command, args, {
        cwd,
        env: childEnvironment(process.env, env, inheritEnv),
        stdio: ['pipe', 'pipe', typeof stderr === 'function' ? 'pipe' : stderr],
        windowsHide: true,
      });
    } catch (error) {
      // Invalid arguments throw at once instead of emitting 'error'; report them the same way.
      const failure = startError(this.#label, error instanceof Error ? error : new Error(String(error)));
      this.#fail(failure);
      this.#inbound.fail(failure);
      return;
    }
    this.#child = child;
    let markExited = () => {};
    this.#exited = new Promise((resolve) => {
      markExited = resolve;
    });
    this.#drained = new Promise((resolve) => child.once('close', () => resolve()));
    this.#readStdout(child);
    if (typeof stderr === 'function') this.#readStderr(child, stderr);
    child.stdin?.on('error', (error) => this.#onWriteError(error));

    child.on('error', (error) => {
      // Once started, 'error' only reports a failed kill(); the 'exit' that follows tells the rest.
      if (child.pid !== undefined) return;
      const failure = startError(this.#label, error);
      this.#fail(failure);
      this.#inbound.fail(failure);
    });
    child.on('exit', (code, signal) => {
      this.#status = { code, signal };
      markExited();
      if (!this.#closeRequested) this.#fail(exitError(this.#label, this.#status));
      // A grandchild may hold our pipes open; do not wait on it for longer than a grace period.
      const timer = setTimeout(() => this.#destroyPipes(), this.#closeTimeout);
      child.once('close', () => clearTimeout(timer));
    });
    child.on('close', () => {
      markExited();
      if (this.#failure) this.#inbound.fail(this.#failure);
      else this.#inbound.end();
    });
  }

  #readStdout(child: ChildProcess): void {
    const stdout = child.stdout;
    if (!stdout) return;
    const maxLineBytes = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const reader = new LineReader({ maxLineBytes, overflow: 'stop', onLine: (line) => this.#receive(line) });
    stdout.on('data', (chunk: Buffer) => {
      if (reader.push(chunk)) return;
      // Framing is lost: stop buffering at once and take the server down.
      const failure = oversizedError(this.#label, maxLineBytes);
      this.#fail(failure);
      this.#inbound.fail(failure);
      stdout.destroy();
      void this.#stop();
    });
    stdout.on('end', () => reader.end());
    stdout.on('error', () => {});
  }

  #readStderr(child: ChildProcess, onLine: (line: string) => void): void {
    const stderr = child.stderr;
    if (!stderr) return;
    const reader = new LineReader({ maxLineBytes: MAX_STDERR_LINE_BYTES, overflow: 'split', onLine });
    stderr.on('data', (chunk: Buffer) => reader.push(chunk));
    stderr.on('end', () => reader.end());
    stderr.on('error', () => {});
  }

  /** One stdout line: a message, or a reported-and-skipped problem (never a throw). */
  #receive(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (cause) {
      this.#inbound.push({ type: 'error', error: notJsonError(this.#label, line, cause) });
      return;
    }
    this.#inbound.push({ type: 'message', message, size: line.length });
  }

  /** Records why the connection is dead and fails every send still waiting on it. */
  #fail(failure: TransportError | LimitError): void {
    this.#failure ??= failure;
    for (const reject of [...this.#pendingSends]) reject(this.#failure);
  }

  /**
   * The server stopped reading (EPIPE). Usually it exited, and its exit, which
   * names the code, follows at once and tells the story; if it does not, the
   * connection is dead all the same: fail it with the write error.
   */
  #onWriteError(error: Error): void {
    if (this.#closeRequested) return;
    const timer = setTimeout(() => {
      if (this.#failure || this.#closeRequested) return;
      const failure = new TransportError(`could not write to mcp server "${this.#label}": ${error.message}`, {
        cause: error,
      });
      this.#fail(failure);
      this.#inbound.fail(failure);
      void this.#stop();
    }, 200);
    timer.unref();
  }

  #stop(): Promise<void> {
    this.#stopping ??= this.#shutdown();
    return this.#stopping;
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    if (!child || !this.#exited || !this.#drained) return;
    if (this.#status === undefined && child.pid !== undefined) {
      await shutdownChild(child, this.#exited, this.#closeTimeout);
    }
    // Not destroying the pipes here lets the last stderr lines through; the 'exit' timer bounds the wait.
    await this.#drained;
  }

  #destroyPipes(): void {
    this.#child?.stdout?.destroy();
    this.#child?.stderr?.destroy();
  }

  /** The grace as a timer can wait it (`timerDelay`): NaN is the default, anything past the longest wait that wait. */
  get #closeTimeout(): number {
    return timerDelay(this.#options.closeTimeout, { fallback: DEFAULT_CLOSE_TIMEOUT });
  }
}

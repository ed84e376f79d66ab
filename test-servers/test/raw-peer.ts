import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A JSON-RPC message as it crossed the wire, untyped: these tests check shapes themselves. */
export type Message = Record<string, unknown> & { id?: number | string; method?: string };

/**
 * A bare JSON-RPC peer: numbers requests, matches responses by id, keeps
 * notifications. No client code of ours, so the tests prove the server alone.
 */
export class RawPeer {
  readonly notifications: Message[] = [];
  /** Answers a request from the server (its result); without one, server requests go unanswered. */
  onRequest?: ((request: Message) => unknown) | undefined;
  #nextId = 1;
  #pending = new Map<number | string, (message: Message) => void>();
  #watchers = new Set<(message: Message) => void>();

  constructor(readonly write: (message: Message) => void | Promise<void>) {}

  /** Feeds one inbound message to the peer. */
  receive(message: Message): void {
    if (message.method === undefined && message.id !== undefined) {
      this.#pending.get(message.id)?.(message);
      this.#pending.delete(message.id);
    } else if (message.id === undefined) {
      this.notifications.push(message);
      for (const watcher of this.#watchers) watcher(message);
    } else if (this.onRequest !== undefined) {
      const { id } = message;
      void Promise.resolve(this.onRequest(message)).then((result) => this.write({ jsonrpc: '2.0', id, result }));
    }
  }

  /** The first notification, received already or still to come, that `match` accepts; rejects after 2 s. */
  notification(match: (message: Message) => boolean): Promise<Message> {
    const seen = this.notifications.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const watcher = (message: Message) => {
        if (!match(message)) return;
        clearTimeout(timer);
        this.#watchers.delete(watcher);
        resolve(message);
      };
      const timer = setTimeout(() => {
        this.#watchers.delete(watcher);
        reject(new Error('no matching notification'));
      }, 2_000);
      this.#watchers.add(watcher);
    });
  }

  /** Sends a request; resolves with the whole response (result or error), or rejects after 5 s. */
  request(method: string, params?: Record<string, unknown>): Promise<Message> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${method}`)), 5_000);
      this.#pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      void this.write({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    });
  }

  /** Initializes on 2025-11-25 and sends `notifications/initialized`; returns the initialize result. */
  async initialize(): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'reference-server-test', version: '0.0.0' },
    });
    await this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result as Record<string, unknown>;
  }

  /** Every item of a paginated list method, and how many pages it took. */
  async listAll(method: string, key: string): Promise<{ items: Record<string, unknown>[]; pages: number }> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await this.request(method, cursor === undefined ? {} : { cursor });
      const result = response.result as Record<string, unknown>;
      items.push(...(result[key] as Record<string, unknown>[]));
      cursor = result.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined && pages < 20);
    return { items, pages };
  }
}

const stdioEntry = fileURLToPath(new URL('../stdio.mjs', import.meta.url));

/**
 * `node test-servers/stdio.mjs <args>` (or another entry script) as a child
 * process, spoken to through a {@link RawPeer}.
 */
export function spawnStdioServer(
  args: string[] = [],
  entry: string = stdioEntry,
): {
  peer: RawPeer;
  child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
} {
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const peer = new RawPeer((message) => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
  createInterface({ input: child.stdout }).on('line', (line) => peer.receive(JSON.parse(line) as Message));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    peer,
    child,
    // The spec's stdio shutdown: close stdin, wait, then terminate.
    async stop() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

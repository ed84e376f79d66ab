/**
 * Raw peers for the task-server tests: one shape over stdio and over a
 * Streamable HTTP session, so each test runs on both transports. No client
 * code of ours.
 */
import { type Message, messageOf, openSession, post, type Session, sseEvents } from './http-peer.js';
import { spawnStdioServer } from './raw-peer.js';

/** What a task test needs of a connection. */
export interface TaskPeer {
  /** Sends a request; resolves with the whole response (result or error). */
  request(method: string, params?: Record<string, unknown>): Promise<Message>;
  /** Answers a request from the server with its result. */
  onRequest?: ((request: Message) => unknown) | undefined;
  /** Notifications received so far. */
  readonly notifications: Message[];
  close(): Promise<void>;
}

/**
 * A stdio server (an entry script and its flags) as a {@link TaskPeer}.
 * `initialize()` opens a 2025-11-25 connection declaring form elicitation;
 * `write()` sends one raw message (a request whose answer is not awaited).
 */
export function stdioTaskPeer(
  entry: string,
  args: string[],
): TaskPeer & { initialize(): Promise<Message>; write(message: Message): void } {
  const server = spawnStdioServer(args, entry);
  return {
    write: (message) => void server.peer.write(message),
    async initialize() {
      const response = await server.peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'task-test-servers-test', version: '0.0.0' },
      });
      await server.peer.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return response;
    },
    request: (method, params) => server.peer.request(method, params),
    set onRequest(handler: ((request: Message) => unknown) | undefined) {
      server.peer.onRequest = handler;
    },
    get notifications() {
      return server.peer.notifications;
    },
    close: () => server.stop(),
  };
}

/**
 * A 2025-11-25 Streamable HTTP session as a {@link TaskPeer}: each request is
 * one POST whose SSE stream may carry server requests (answered by POSTing
 * the response, 202) and notifications before the response.
 */
export class HttpTaskPeer implements TaskPeer {
  readonly notifications: Message[] = [];
  onRequest?: ((request: Message) => unknown) | undefined;
  #nextId = 100;

  private constructor(
    readonly url: string,
    readonly session: Session,
  ) {}

  /** Opens a session on `url` (initialize with sampling, elicitation and roots). */
  static async open(url: string): Promise<HttpTaskPeer> {
    return new HttpTaskPeer(url, await openSession(url));
  }

  async request(method: string, params?: Record<string, unknown>): Promise<Message> {
    const id = this.#nextId++;
    const message = { jsonrpc: '2.0', id, method, ...(params && { params }) };
    const response = await post(this.url, message, this.session.headers, { signal: AbortSignal.timeout(10_000) });
    if (!response.headers.get('content-type')?.includes('text/event-stream')) return (await response.json()) as Message;
    for await (const event of sseEvents(response)) {
      const received = messageOf(event);
      if (received === undefined) continue;
      if (received.method !== undefined && received.id !== undefined) {
        const result = await this.onRequest?.(received);
        const answer = await post(this.url, { jsonrpc: '2.0', id: received.id, result }, this.session.headers);
        if (answer.status !== 202) throw new Error(`answer to ${received.method} got ${answer.status}`);
      } else if (received.method !== undefined) {
        this.notifications.push(received);
      } else if (received.id === id) {
        return received;
      }
    }
    throw new Error(`the stream of ${method} ended without its response`);
  }

  async close(): Promise<void> {
    await fetch(this.url, { method: 'DELETE', headers: this.session.headers }).catch(() => undefined);
  }
}

/**
 * Polls `tasks/get` every `pollMs` until `done` accepts the task; rejects after `limit` polls.
 * @returns the last `tasks/get` result
 */
export async function pollTask(
  get: () => Promise<Message>,
  done: (task: Record<string, unknown>) => boolean,
  { pollMs = 20, limit = 250 } = {},
): Promise<Record<string, unknown>> {
  for (let poll = 0; poll < limit; poll++) {
    const response = await get();
    if (response.error !== undefined) throw new Error(`tasks/get failed: ${JSON.stringify(response.error)}`);
    const task = response.result as Record<string, unknown>;
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`task not done after ${limit} polls`);
}

/** Whether a task status is terminal. */
export function isTerminal(task: Record<string, unknown>): boolean {
  return task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
}

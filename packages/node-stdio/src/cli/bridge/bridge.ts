import type { Readable } from 'node:stream';
import {
  Client,
  type ClientOptions,
  type CreateMessageResult,
  type ElicitResult,
  ErrorCode,
  type Implementation,
  type ListenFilter,
  type Progress,
  type RequestId,
  type Root,
  StreamableHttpTransport,
  type Subscription,
} from '@mcp/core';
import { excerpt, isRequestId, jsonExcerpt, messageOf, timerDelay } from '@mcp/core/transport';
import { LineReader } from '../../line-reader.js';
import { EXIT_INTERRUPTED } from '../error-line.js';
import type { OutputStream } from '../format.js';
import { type RemoteTransport, remoteTransport } from '../remote-transport.js';
import { terminalText } from '../terminal-text.js';
import { VERSION } from '../version.js';
import type { BridgeCommand } from './bridge-command.js';
import { type ForwardContext, forwardOf, toLocalError } from './forward.js';
import { holdSubscription } from './held-subscription.js';
import { type ErrorObject, isRecord, LocalPeer } from './local-peer.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { defaultTokenDirectory, FileOAuthStore } from './token-store.js';

/** Where the bridge reads and writes: the process's own streams, or a test's. */
export interface BridgeIo {
  /** The local client's messages, one per line. */
  readonly stdin: Readable;
  /** Only JSON-RPC messages go here. */
  readonly stdout: OutputStream;
  /** Everything else: what went wrong, and where to authorize. */
  readonly stderr: OutputStream;
  /** Read for `--token-env` and `XDG_CONFIG_HOME` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Ctrl+C or SIGTERM: close the remote session and return 130. */
  readonly signal?: AbortSignal;
  /** Opens an OAuth authorization URL (default: the system browser). */
  readonly openBrowser?: (url: string) => unknown;
}

/** A line of the local client's quoted on stderr is cut to this many characters: it may be of any length. */
const SHOWN_CHARS = 120;

/** Notifications of the remote server that reach the local client; progress goes to its own call. */
const FORWARDED_NOTIFICATIONS = new Set([
  'notifications/message',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/elicitation/complete',
]);

/** How long a `resources/subscribe` waits for a 2026-07-28 remote's acknowledgement without `--timeout`: the Client's default request timeout. */
const DEFAULT_ACK_WAIT = 60_000;

/**
 * How long `initialize` waits for a 2026-07-28 remote to acknowledge the
 * listen stream for list changes (or `--timeout`, when shorter). Past it the
 * local client is answered anyway, and told no list changes
 * (`listChanged` left out of the capabilities), which a stream acknowledged
 * later may still bring.
 */
export const LIST_CHANGES_ACK_WAIT = 5000;

/**
 * How long a request of the remote server (sampling, elicitation, roots) waits
 * for the local client's answer without `--timeout`: a person may be filling a
 * form. Past it the local client is sent `notifications/cancelled` and the
 * remote a timeout error.
 */
export const RELAY_TIMEOUT = 300_000;

/**
 * The handshake revisions (2024-11-05 … 2025-11-25), newest first: the local
 * client speaks one of them over stdio. Loaded with the first `initialize`:
 * core's protocol entry costs every other `mcp` command about 5 ms to start.
 */
const handshakeVersions = async (): Promise<readonly string[]> =>
  (await import('@mcp/core/protocol')).LEGACY_PROTOCOL_VERSIONS;

/**
 * `mcp bridge <url>`: a stdio MCP server that is a client of a remote
 * Streamable HTTP server, so a local client that only starts servers as child
 * processes reaches a remote one. Returns the exit status: 0 once stdin ends
 * (the remote session closed first), 130 when interrupted.
 */
export async function runBridge(command: BridgeCommand, io: BridgeIo): Promise<number> {
  const bridge = new Bridge(command, io);
  await bridge.run();
  return io.signal?.aborted ? EXIT_INTERRUPTED : 0;
}

class Bridge {
  readonly #command: BridgeCommand;
  readonly #io: BridgeIo;
  readonly #peer: LocalPeer;
  /** Aborted when the bridge stops: stdin ended, or the process was interrupted. */
  readonly #stop = new AbortController();
  /** Forwarded requests by the local client's id, so `notifications/cancelled` can abort one. */
  readonly #inFlight = new Map<RequestId, AbortController>();
  readonly #subscriptions: ResourceSubscriptions;
  /** The 2026-07-28 listen stream for list changes. */
  #changes: Subscription | undefined;
  #client: Client | undefined;
  #remote: RemoteTransport | undefined;
  #initializing = false;

  constructor(command: BridgeCommand, io: BridgeIo) {
    this.#command = command;
    this.#io = io;
    this.#peer = new LocalPeer(io.stdout, {
      ...(command.maxQueuedOutput !== undefined && { maxQueuedOutput: command.maxQueuedOutput }),
      onDrop: (message) => this.#log(message),
    });
    this.#subscriptions = new ResourceSubscriptions({
      ackTimeoutMs: command.timeout ?? DEFAULT_ACK_WAIT,
      onBroken: (uri, error) => this.#log(`the subscription to ${uri} ended: ${messageOf(error)}`),
    });
  }

  /** Reads stdin to its end (or an interrupt), then closes everything. */
  async run(): Promise<void> {
    const { maxLineBytes } = this.#command;
    const reader = new LineReader({
      maxLineBytes,
      overflow: 'skip',
      onLine: (line) => this.#receive(line),
      onOverflow: () => this.#log(`dropped a line on stdin longer than ${maxLineBytes} bytes (--max-line-bytes)`),
    });
    const { stdin, signal } = this.#io;
    const onData = (chunk: Buffer | string) => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    try {
      await new Promise<void>((resolve) => {
        const ended = () => {
          reader.end();
          resolve();
        };
        stdin.on('data', onData);
        stdin.once('end', ended);
        stdin.once('close', ended);
        stdin.once('error', (error) => {
          this.#log(`stdin: ${messageOf(error)}`);
          resolve();
        });
        if (signal?.aborted) resolve();
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      stdin.off('data', onData);
      // An interrupt leaves stdin open: destroyed, it no longer holds the process.
      stdin.destroy();
      await this.#close();
    }
  }

  /** One line from stdin: a request, a notification, or an answer to something we asked. */
  #receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.#log(`stdin: a line that is not JSON was answered with a parse error: ${excerpt(line, SHOWN_CHARS)}`);
      this.#peer.fail(null, { code: ErrorCode.ParseError, message: 'Parse error: the line is not JSON' });
      return;
    }
    const id = isRecord(message) && isRequestId(message.id) ? message.id : undefined;
    if (!isRecord(message) || message.jsonrpc !== '2.0') {
      this.#log(`stdin: not a JSON-RPC 2.0 message (a batch, or no "jsonrpc": "2.0"): ${excerpt(line, SHOWN_CHARS)}`);
      this.#peer.fail(id ?? null, { code: ErrorCode.InvalidRequest, message: 'Invalid request: not JSON-RPC 2.0' });
      return;
    }
    const { method } = message;
    const params = isRecord(message.params) ? message.params : {};
    if (typeof method === 'string' && id !== undefined) this.#request(id, method, params);
    else if (typeof method === 'string' && !('id' in message)) this.#notification(method, params);
    else if (id !== undefined && ('result' in message || 'error' in message)) {
      if (!this.#peer.settle(message))
        this.#log(`stdin: an answer to no request of ours (id ${jsonExcerpt(id, SHOWN_CHARS)})`);
    } else {
      this.#log(`stdin: neither a request, a notification nor a response: ${excerpt(line, SHOWN_CHARS)}`);
      this.#peer.fail(id ?? null, { code: ErrorCode.InvalidRequest, message: 'Invalid request' });
    }
  }

  #request(id: RequestId, method: string, params: Record<string, unknown>): void {
    if (method === 'initialize') {
      // The local client has its answer by the time this can fail: only giving up a connection is left.
      this.#initialize(id, params).catch((error: unknown) => this.#log(`initialize: ${messageOf(error)}`));
      return;
    }
    // A ping is between the local client and the bridge: answered here, whatever the remote does.
    if (method === 'ping') {
      this.#peer.respond(id, {});
      return;
    }
    const client = this.#client;
    const forward = forwardOf(method);
    const instead = this.#answerInstead(id, method, client !== undefined, forward !== undefined);
    if (instead || !client || !forward) {
      if (instead) this.#peer.fail(id, instead);
      return;
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const { progressToken, params: sent } = takeProgressToken(params);
    const options = {
      signal: controller.signal,
      ...(progressToken !== undefined && {
        onProgress: (progress: Progress) => this.#peer.notify('notifications/progress', { progressToken, ...progress }),
      }),
    };
    forward(this.#context(client), sent, options)
      .then(
        (result) => !controller.signal.aborted && this.#peer.respond(id, result),
        // A request the local client cancelled gets no answer (2025-11-25, utilities/cancellation).
        (error: unknown) => !controller.signal.aborted && this.#peer.fail(id, toLocalError(error)),
      )
      .finally(() => {
        if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
      });
  }

  /** The error a request is answered with at once instead of being forwarded; undefined to forward it. */
  #answerInstead(id: RequestId, method: string, initialized: boolean, known: boolean): ErrorObject | undefined {
    if (!initialized) return { code: ErrorCode.InvalidRequest, message: `bridge: ${method} before initialize` };
    if (!known) return { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` };
    if (this.#inFlight.has(id))
      return { code: ErrorCode.InvalidRequest, message: `bridge: id ${id} is already in use` };
    const max = this.#command.maxInFlight;
    if (this.#inFlight.size < max) return undefined;
    return {
      code: ErrorCode.InternalError,
      message: `bridge: ${max} requests are already being forwarded (--max-in-flight); send again once one is answered`,
      data: { limit: 'maxInFlight', value: max },
    };
  }

  #notification(method: string, params: Record<string, unknown>): void {
    if (method === 'notifications/cancelled' && isRequestId(params.requestId)) {
      const reason = typeof params.reason === 'string' ? `: ${params.reason}` : '';
      this.#inFlight.get(params.requestId)?.abort(new Error(`cancelled by the local client${reason}`));
    } else if (method === 'notifications/roots/list_changed') {
      this.#client
        ?.notifyRootsChanged()
        .catch((error: unknown) => this.#log(`roots/list_changed: ${messageOf(error)}`));
    }
    // notifications/initialized, and any other: nothing to do.
  }

  /**
   * Connects to the remote server with what the local client declared (its
   * handlers relay the remote's requests to it), and answers with the remote's
   * identity, capabilities and instructions, in the local client's revision
   * when we speak it, else the newest handshake revision.
   */
  async #initialize(id: RequestId, params: Record<string, unknown>): Promise<void> {
    if (this.#client || this.#initializing) {
      return this.#peer.fail(id, { code: ErrorCode.InvalidRequest, message: 'bridge: already initialized' });
    }
    this.#initializing = true;
    try {
      const local = isRecord(params.capabilities) ? params.capabilities : {};
      const remote = await this.#openRemote();
      this.#remote = remote;
      const client = new Client(remote.transport, this.#clientOptions(local, params.clientInfo));
      await client.connect({ signal: this.#stop.signal });
      // Stdin may have ended while connecting: #close() has run, so this client is closed here.
      if (this.#stop.signal.aborted) {
        await client.close();
        return;
      }
      this.#client = client;
      const listening = client.era === 'modern' ? await this.#listenForChanges(client) : undefined;
      const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
      const versions = await handshakeVersions();
      const { tasks: _followedHere, ...declared } = client.serverCapabilities ?? {};
      const capabilities = listening === false ? withoutListChanged(declared) : declared;
      this.#peer.respond(id, {
        protocolVersion: versions.includes(requested) ? requested : versions[0],
        capabilities,
        serverInfo: client.serverInfo ?? { name: 'mcp-bridge', version: VERSION },
        ...(client.instructions !== undefined && { instructions: client.instructions }),
      });
    } catch (error) {
      this.#log(`could not connect to ${this.#command.url.href}: ${messageOf(error)}`);
      this.#peer.fail(id, toLocalError(error));
      await this.#remote?.close();
      this.#remote = undefined;
    } finally {
      this.#initializing = false;
    }
  }

  /** `--token-env`: a static bearer token; otherwise OAuth when the server asks, its tokens kept in a file. */
  async #openRemote(): Promise<RemoteTransport> {
    const { url, headers, tokenEnv, tokenStore } = this.#command;
    const env = this.#io.env ?? process.env;
    if (tokenEnv !== undefined) {
      const token = env[tokenEnv];
      if (!token) throw new Error(`--token-env: the variable ${tokenEnv} is empty or not set`);
      const transport = new StreamableHttpTransport(url, { headers, tokenProvider: () => token });
      return { transport, close: async () => {} };
    }
    const store = new FileOAuthStore(tokenStore ?? defaultTokenDirectory(env), url);
    const { stderr, openBrowser } = this.#io;
    return remoteTransport(
      url,
      { stderr, signal: this.#stop.signal, ...(openBrowser && { openBrowser }) },
      { store, headers, fetch: store.refreshingFetch() },
    );
  }

  /** Handlers only for what the local client declared, so the remote server is offered exactly that. */
  #clientOptions(local: Record<string, unknown>, clientInfo: unknown): ClientOptions {
    const peer = this.#peer;
    const { timeout } = this.#command;
    const { sampling, elicitation, roots } = local;
    return {
      clientInfo: isImplementation(clientInfo) ? clientInfo : { name: 'mcp-bridge', version: VERSION },
      ...(timeout !== undefined && { requestTimeout: timeout }),
      onNotification: (method, params) => {
        if (FORWARDED_NOTIFICATIONS.has(method)) peer.notify(method, params);
      },
      onError: (error) => this.#log(messageOf(error)),
      onWarning: (message) => this.#log(message),
      ...(isRecord(sampling) && {
        sampling: {
          handler: async (request, { signal }) =>
            (await this.#ask('sampling/createMessage', request, signal)) as unknown as CreateMessageResult,
          tools: isRecord(sampling.tools),
        },
      }),
      ...(isRecord(elicitation) && {
        elicitation: {
          handler: async (request, { signal }) =>
            (await this.#ask('elicitation/create', request, signal)) as unknown as ElicitResult,
          url: isRecord(elicitation.url),
        },
      }),
      ...(isRecord(roots) && {
        roots: async ({ signal }) => {
          const answer = await this.#ask('roots/list', {}, signal);
          return (Array.isArray(answer.roots) ? answer.roots : []) as Root[];
        },
      }),
    };
  }

  /**
   * Relays a request of the remote server to the local client. It is given up
   * (and the local client sent `notifications/cancelled`) when the remote
   * cancels it (`signal`), the bridge stops, or the local client takes longer
   * than `--timeout`, else {@link RELAY_TIMEOUT}.
   */
  #ask(method: string, params: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
    // `--timeout` has no ceiling of its own: past the longest wait a timer has, it fires at once.
    const ms = timerDelay(this.#command.timeout, { fallback: RELAY_TIMEOUT });
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(new DOMException(`the local client did not answer ${method} within ${ms} ms`, 'TimeoutError')),
      ms,
    );
    const bound = AbortSignal.any([this.#stop.signal, timeout.signal, ...(signal ? [signal] : [])]);
    return this.#peer.request(method, params, bound).finally(() => clearTimeout(timer));
  }

  /**
   * A 2026-07-28 server sends list changes only on a `subscriptions/listen`
   * stream: one is kept open for what it declared `listChanged`, and its events
   * reach the local client as the notifications they arrive as. True once the
   * server acknowledged it, false when it did not within
   * {@link LIST_CHANGES_ACK_WAIT} (or refused), undefined when there is nothing to listen for.
   */
  async #listenForChanges(client: Client): Promise<boolean | undefined> {
    const capabilities = client.serverCapabilities ?? {};
    const listChanged = (key: 'tools' | 'prompts' | 'resources') => {
      const capability = capabilities[key];
      return isRecord(capability) && capability.listChanged === true;
    };
    const filter: ListenFilter = {
      ...(listChanged('tools') && { toolsListChanged: true }),
      ...(listChanged('prompts') && { promptsListChanged: true }),
      ...(listChanged('resources') && { resourcesListChanged: true }),
    };
    if (Object.keys(filter).length === 0) return undefined;
    try {
      this.#changes = await client.listen(filter);
      // Answered once the stream is up, so a change right after initialize is not missed.
      await holdSubscription(this.#changes, {
        timeoutMs: Math.min(LIST_CHANGES_ACK_WAIT, this.#command.timeout ?? LIST_CHANGES_ACK_WAIT),
        signal: this.#stop.signal,
        onEnd: (error) => {
          if (error !== undefined && !this.#stop.signal.aborted) this.#log(`list changes stopped: ${messageOf(error)}`);
        },
      });
      return true;
    } catch (error) {
      this.#log(`list changes will not be forwarded: ${messageOf(error)}`);
      return false;
    }
  }

  #context(client: Client): ForwardContext {
    return { client, subscriptions: this.#subscriptions };
  }

  /** Stdin ended or the process was interrupted: the remote session ends too (a legacy one with DELETE). */
  async #close(): Promise<void> {
    this.#stop.abort(new Error('bridge: stdin ended'));
    this.#peer.close();
    for (const controller of this.#inFlight.values()) controller.abort(new Error('bridge: stdin ended'));
    // Each subscription closed on its own first: one left for client.close() to end kept its HTTP
    // stream, and so the process, alive for seconds after.
    await Promise.allSettled([this.#subscriptions.close(), this.#changes?.close()]);
    await this.#client?.close();
    await this.#remote?.close();
  }

  #log(line: string): void {
    this.#io.stderr.write(`${terminalText(`mcp bridge: ${line}`)}\n`);
  }
}

/**
 * The local client's progress token stays here: the Client asks the remote
 * with a token of its own (`onProgress`) and each report goes back under the
 * local one.
 */
function takeProgressToken(params: Record<string, unknown>): {
  progressToken: string | number | undefined;
  params: Record<string, unknown>;
} {
  const meta = params._meta;
  if (!isRecord(meta) || !isRequestId(meta.progressToken)) return { progressToken: undefined, params };
  const { progressToken, ...rest } = meta;
  const { _meta: _dropped, ...others } = params;
  return { progressToken, params: Object.keys(rest).length > 0 ? { ...others, _meta: rest } : others };
}

/** The capabilities without `listChanged`: the local client is not told of changes it would never hear. */
function withoutListChanged(capabilities: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(capabilities).map(([key, value]) => {
      if (!isRecord(value) || !('listChanged' in value)) return [key, value];
      const { listChanged: _unheard, ...rest } = value;
      return [key, rest];
    }),
  );
}

function isImplementation(value: unknown): value is Implementation {
  return isRecord(value) && typeof value.name === 'string' && typeof value.version === 'string';
}

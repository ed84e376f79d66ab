import type { RequestId, Transport } from '../../src/index.js';

/** A message as the scripted server saw it arrive: raw JSON-RPC, fields unchecked. */
export interface WireMessage {
  readonly jsonrpc?: unknown;
  readonly id?: RequestId;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** What `handshake()` answers to `initialize`. */
export interface HandshakeOptions {
  readonly capabilities?: Record<string, unknown>;
  /** Defaults to the version the client asked for. */
  readonly protocolVersion?: string;
  readonly serverInfo?: { name: string; version: string };
  readonly instructions?: string;
}

/**
 * The server side of a transport (a `MemoryTransport` pair's other end),
 * scripted message by message in raw JSON-RPC, in the style of go-sdk's
 * scripted fake server: each `expect` names the next message the client must
 * send, and `verify()` (run at teardown) fails when an expectation was never
 * met or a message arrived that no step consumed. Responses to the server's own
 * `request()`s are matched by id and never enter the expected stream.
 */
export declare class ScriptedServer {
  /** Settles when the client's end stops sending (it closed, or we did). */
  readonly ended: Promise<void>;
  /** Any transport end: the sources' `MemoryTransport` or one from a built bundle. */
  constructor(transport: Pick<Transport, 'send' | 'messages' | 'close'>);
  /** The next message the client sends; fails unless it is `method` (a request or a notification). */
  expect(method: string, timeout?: number): Promise<WireMessage>;
  /** The next message the client sends, whatever it is (e.g. a response to a raw request). */
  next(timeout?: number): Promise<WireMessage>;
  /** Answers the request `id` with `result`. */
  reply(id: RequestId | undefined, result: Record<string, unknown>): Promise<void>;
  /** Answers the request `id` with a JSON-RPC error. */
  replyError(id: RequestId | undefined, code: number, message: string, data?: unknown): Promise<void>;
  /** Sends anything at all, valid JSON-RPC or not. */
  send(raw: unknown): Promise<void>;
  /** Sends a notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Sends a server request and resolves with the client's response, however long it takes. */
  request(method: string, params?: Record<string, unknown>, id?: RequestId): Promise<WireMessage>;
  /** Fails unless the client stays silent for `ms`. */
  assertNoMessage(ms: number): Promise<void>;
  /**
   * Expects `initialize`, first refusing the client's 2026-07-28 probe
   * (`server/discover`) as an unknown method, as a legacy server does.
   */
  expectInitialize(): Promise<WireMessage>;
  /**
   * Plays the server's part of the legacy handshake: answers `initialize` with
   * `options`, then expects `notifications/initialized`. Returns the initialize request.
   */
  handshake(options?: HandshakeOptions): Promise<WireMessage>;
  /** Expects the request `method`, answers it with `result`, and returns the request. */
  answer(method: string, result: Record<string, unknown>): Promise<WireMessage>;
  /** Resolves once the client's end has closed the stream, or fails after `timeout`. */
  expectEnd(timeout?: number): Promise<void>;
  /** Closes the server's end. */
  close(): Promise<void>;
  /** Teardown check: every step was met and every message the client sent was consumed. */
  verify(): void;
}

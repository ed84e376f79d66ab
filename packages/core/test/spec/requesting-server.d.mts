/** A JSON-RPC message as the requesting server reads and writes it: raw, fields unchecked. */
export interface RawMessage {
  readonly jsonrpc?: unknown;
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** The requests `tools/call ask` sends before its result: `ping` and `sampling/createMessage`. */
export declare const FORBIDDEN_REQUESTS: readonly RawMessage[];

/** One requesting server's state: the messages to send back for each message the client sent, in order. */
export declare function requestingServer(): { answer(message: RawMessage): RawMessage[] };

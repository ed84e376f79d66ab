/**
 * Shared pieces of the 2026-07-28 client tests: a `/v2` hub per test (server
 * state of its own), stdio reference servers with a tap on what the client
 * wrote, and one set of handlers every era must answer the same way.
 */
import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { afterEach } from 'vitest';
import {
  Client,
  type ClientOptions,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
  type TransportEvent,
} from '../../../src/index.js';

export { type Connected, until, useClients, useHttpServers } from '../../transport/http/harness.js';
export { type Asked, ROOTS, recordingHandlers } from './recording-handlers.js';

const stdioScript = fileURLToPath(new URL('../../../../../test-servers/stdio.mjs', import.meta.url));

let hubs = 0;

/** A `/v2` URL with a hub of its own, so no other test shares its tools, counts or listen streams. */
export function hubUrl(modes: string, name: string): string {
  return `${modes}/v2?hub=${name}-${++hubs}`;
}

/**
 * Records every message the client hands to a transport, on its way out: what
 * went over a stdio pipe, where no counting fetch can look. Changes nothing.
 */
export class TapTransport implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.sent.push(message);
    return this.#inner.send(message, options);
  }

  messages(): AsyncIterable<TransportEvent> {
    return this.#inner.messages();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Methods of the requests and notifications sent, in order. */
  methods(): string[] {
    return this.sent.flatMap((message) =>
      'method' in message && typeof message.method === 'string' ? [message.method] : [],
    );
  }
}

export interface StdioConnection {
  readonly client: Client;
  readonly tap: TapTransport;
  readonly stderr: string[];
  readonly notifications: { readonly method: string; readonly params: unknown }[];
}

/**
 * Spawns `test-servers/stdio.mjs --sdk <sdk>` per test and closes every client
 * after it. Each client is a fresh one: an `eraCache` of its own unless the test
 * passes one, since every spawn of the same command line has the same
 * `serverKey` and would otherwise reuse the verdict of an earlier test.
 */
export function useStdio(): (sdk: 'v1' | 'v2', options?: ClientOptions, connect?: boolean) => Promise<StdioConnection> {
  const open: Client[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  return async (sdk, options = {}, connect = true) => {
    const stderr: string[] = [];
    const tap = new TapTransport(
      new StdioTransport({
        command: process.execPath,
        args: [stdioScript, '--sdk', sdk, ...(sdk === 'v1' ? ['--trace'] : [])],
        stderr: (line) => stderr.push(line),
        closeTimeout: 500,
      }),
    );
    const notifications: { method: string; params: unknown }[] = [];
    const client = new Client(tap, {
      requestTimeout: 5000,
      eraCache: new Map(),
      ...options,
      onNotification: (method, params) => {
        notifications.push({ method, params });
        return options.onNotification?.(method, params);
      },
    });
    open.push(client);
    if (connect) await client.connect();
    return { client, tap, stderr, notifications };
  };
}

/** The `_meta` of a sent request, or `{}`. */
export function metaOf(message: unknown): Record<string, unknown> {
  const params = (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params;
  return params?._meta ?? {};
}

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** One POST as sent, with the body of its answer once it has been read to the end. */
export interface Exchange {
  readonly request: Record<string, unknown>;
  readonly headers: Headers;
  /** The JSON-RPC messages of the answer (JSON or SSE `data:` lines), once the body ended. */
  readonly answer: Promise<Record<string, unknown>[]>;
}

/**
 * A `fetch` that records each POSTed JSON-RPC message and what came back, by
 * reading a clone of the answer: to compare a retry with the answer before it
 * (byte-exact `requestState`). It changes nothing on the wire.
 */
export function exchangeLog(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const logging = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const answer = response
        .clone()
        .text()
        .then(messagesOf, () => []);
      exchanges.push({ request: JSON.parse(init.body), headers: new Headers(init.headers), answer });
    }
    return response;
  };
  return { fetch: logging as typeof fetch, exchanges };
}

function messagesOf(body: string): Record<string, unknown>[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return [JSON.parse(trimmed)];
  return trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 5)
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice(5))];
      } catch {
        return [];
      }
    });
}

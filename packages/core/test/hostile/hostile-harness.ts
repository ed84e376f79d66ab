/**
 * The HTTP side of the hostile-server suite: the server (test-servers/hostile)
 * for a file, clients on fresh endpoints that are closed after each test with
 * unhandled rejections failing the test, and the size-limit error check.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type HostileEndpoint,
  type HostileServer,
  startHostileServer,
} from '../../../../test-servers/hostile/serve.mjs';
import {
  Client,
  type ClientOptions,
  LimitError,
  McpError,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from '../../src/index.js';
import { useClientGuards } from '../transport/http/harness.js';
import { expectHealthy, MiB } from './checks.js';

/** Starts the hostile server for the file and stops it after. */
export function useHostileServer(): () => HostileServer {
  let server: HostileServer | undefined;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the hostile server is not started yet');
    return server;
  };
}

export interface Hostile {
  readonly client: Client;
  readonly endpoint: HostileEndpoint;
  /** What the client reported to `onError`. */
  readonly errors: Error[];
  readonly warnings: string[];
}

export interface OpenOptions {
  /** `sse`: the 2024-11-05 HTTP+SSE transport, which the client reaches by its legacy fallback. */
  readonly era?: 'legacy' | 'modern' | 'sse';
  readonly transport?: StreamableHttpTransportOptions;
  readonly client?: ClientOptions;
  /** Connect and check a healthy call before returning (default true). */
  readonly connect?: boolean;
}

/**
 * Opens connected clients on fresh endpoints; closes them after each test, and
 * fails the test on any unhandled rejection. Every client has a 1 MiB
 * `maxMessageBytes` unless the test says otherwise.
 */
export function useHostileClients(
  server: () => HostileServer,
): (fault: string, options?: OpenOptions) => Promise<Hostile> {
  const open = useClientGuards();
  return async (fault, options = {}) => {
    const endpoint = server().endpoint(fault, options.era ?? 'legacy');
    const errors: Error[] = [];
    const warnings: string[] = [];
    const transport = new StreamableHttpTransport(endpoint.url, { maxMessageBytes: MiB, ...options.transport });
    const client = new Client(transport, {
      requestTimeout: 10_000,
      onError: (error) => errors.push(error),
      onWarning: (message) => warnings.push(message),
      ...options.client,
    });
    open.push(client);
    if (options.connect !== false) {
      await client.connect();
      expect(client.era).toBe(options.era === 'modern' ? 'modern' : 'legacy');
      await expectHealthy(client);
    }
    return { client, endpoint, errors, warnings };
  };
}

/**
 * The error a call gets when a body passes `maxMessageBytes`: a LimitError
 * naming the limit, or, on an SSE stream that cannot go on, the
 * TransportError that ended it with that LimitError as its cause.
 */
export function expectSizeLimitError(error: unknown): void {
  expect(error).toBeInstanceOf(McpError);
  const limitError = error instanceof LimitError ? error : (error as Error).cause;
  expect(limitError).toBeInstanceOf(LimitError);
  expect(limitError).toMatchObject({ limit: 'maxMessageBytes' });
}

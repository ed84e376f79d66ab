/**
 * Shared pieces of the hostile-server suite: the server (test-servers/hostile),
 * clients that are closed after each test with unhandled rejections failing the
 * test, a healthy-call check, and a sampler of heap growth while a fault runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  type HostileEndpoint,
  type HostileServer,
  startHostileServer,
} from '../../../../test-servers/hostile/serve.mjs';
import {
  Client,
  type ClientOptions,
  McpError,
  ProtocolError,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from '../../src/index.js';

export const MiB = 1024 * 1024;

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
  readonly era?: 'legacy' | 'modern';
  readonly transport?: StreamableHttpTransportOptions;
  readonly client?: ClientOptions;
}

/**
 * Opens connected clients on fresh endpoints; closes them after each test, and
 * fails the test on any unhandled rejection. Every client has a 1 MiB
 * `maxMessageBytes` unless the test says otherwise.
 */
export function useHostileClients(
  server: () => HostileServer,
): (fault: string, options?: OpenOptions) => Promise<Hostile> {
  const open: Client[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeEach(() => {
    rejections.length = 0;
    process.on('unhandledRejection', onRejection);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await new Promise((resolve) => setTimeout(resolve, 5));
    process.off('unhandledRejection', onRejection);
    expect(rejections, 'unhandled rejections').toEqual([]);
  });
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
    await client.connect();
    expect(client.era).toBe(options.era ?? 'legacy');
    await expectHealthy(client);
    return { client, endpoint, errors, warnings };
  };
}

/** The healthy tool answers on this client: what every case checks before and after the fault. */
export async function expectHealthy(client: Client): Promise<void> {
  const result = await client.callTool('echo', { text: 'still here' });
  expect(result.text).toBe('still here');
}

/** Runs `work` and how long it took, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

/** The error `promise` rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    const value = await promise;
    expect.fail(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
  } catch (error) {
    return error;
  }
}

function heapInUse(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Runs `work` while sampling the heap (and array buffers) every millisecond,
 * after a GC when `--expose-gc` gave us one: the largest growth seen. A bomb
 * that is buffered whole shows up as its decoded size.
 */
export async function peakGrowthDuring<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = heapInUse();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, heapInUse() - base);
  };
  const timer = setInterval(sample, 1);
  try {
    const value = await work();
    sample();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The error a call gets when a body passes `maxMessageBytes`: a ProtocolError
 * naming the limit, or, on an SSE stream that cannot go on, the
 * TransportError that ended it with that ProtocolError as its cause.
 */
export function expectSizeLimitError(error: unknown): void {
  expect(error).toBeInstanceOf(McpError);
  const limitError = error instanceof ProtocolError ? error : (error as Error).cause;
  expect(limitError).toBeInstanceOf(ProtocolError);
  expect((limitError as Error).message).toMatch(/maxMessageBytes/);
}

/** Waits until `condition` holds (polling every 10 ms), failing after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) expect.fail(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

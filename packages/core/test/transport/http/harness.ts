import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  Client,
  type ClientOptions,
  type SessionInfo,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from '../../../src/index.js';
import { countingFetch, type FetchCall } from './counting-fetch.js';
import { type FaultScript, type HttpServers, type ScenarioStats, startHttpServers } from './test-servers.js';

/** A fault scenario: its MCP endpoint and what it saw so far. */
export interface Scenario {
  readonly id: string;
  readonly mcp: string;
  stats(): Promise<ScenarioStats>;
}

export interface Servers extends HttpServers {
  /** Creates a fault scenario through the control API (`POST /faults`). */
  scenario(script?: FaultScript): Promise<Scenario>;
}

/** Starts the HTTP test servers for the file (beforeAll) and stops them after it. */
export function useHttpServers(): Servers {
  let started: HttpServers | undefined;
  beforeAll(async () => {
    started = await startHttpServers();
  });
  afterAll(async () => {
    await started?.close();
  });
  const get = (): HttpServers => {
    if (!started) throw new Error('the HTTP test servers are not started yet');
    return started;
  };
  return {
    get modes() {
      return get().modes;
    },
    get faults() {
      return get().faults;
    },
    get other() {
      return get().other;
    },
    get refused() {
      return get().refused;
    },
    close: () => get().close(),
    async scenario(script = {}) {
      const response = await fetch(`${get().faults}/faults`, { method: 'POST', body: JSON.stringify(script) });
      if (response.status !== 201) throw new Error(`fault script refused: ${await response.text()}`);
      const created = (await response.json()) as { id: string; mcp: string; stats: string };
      return {
        id: created.id,
        mcp: created.mcp,
        stats: async () => (await (await fetch(created.stats)).json()) as ScenarioStats,
      };
    },
  };
}

/** A client on a Streamable HTTP transport, with everything it observed. */
export interface Connected {
  readonly client: Client;
  readonly transport: StreamableHttpTransport;
  /** Every fetch the transport made (through a counting wrapper around the real fetch). */
  readonly calls: FetchCall[];
  /** What the client reported to `onError`. */
  readonly errors: Error[];
  readonly notifications: { readonly method: string; readonly params: unknown }[];
}

export interface OpenOptions {
  readonly transport?: StreamableHttpTransportOptions;
  readonly client?: ClientOptions;
  /** Call `connect()` before returning (default true). */
  readonly connect?: boolean;
  /** Rewrites what the Client tells the transport when a session starts (e.g. `serverMessages`). */
  readonly sessionInfo?: (info: SessionInfo) => SessionInfo;
}

/** A Streamable HTTP transport that is told something else than the Client says when a session starts. */
class RewrittenSessionTransport extends StreamableHttpTransport {
  readonly #rewrite: (info: SessionInfo) => SessionInfo;

  constructor(url: string, options: StreamableHttpTransportOptions, rewrite: (info: SessionInfo) => SessionInfo) {
    super(url, options);
    this.#rewrite = rewrite;
  }

  override sessionStarted(info: SessionInfo): void {
    super.sessionStarted(this.#rewrite(info));
  }
}

export type OpenClient = (url: string, options?: OpenOptions) => Promise<Connected>;

/**
 * Per-test guards for a suite's clients: every client pushed on the returned list
 * is closed after the test, and an unhandled rejection fails the test that caused it.
 */
export function useClientGuards(): Client[] {
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
  return open;
}

/**
 * Per-test guards of an HTTP client suite: every client opened is closed after
 * the test, and an unhandled rejection fails the test that caused it.
 */
export function useClients(): OpenClient {
  const open = useClientGuards();
  return async (url, options = {}) => {
    const counting = countingFetch();
    const transportOptions = { fetch: counting.fetch, ...options.transport };
    const transport = options.sessionInfo
      ? new RewrittenSessionTransport(url, transportOptions, options.sessionInfo)
      : new StreamableHttpTransport(url, transportOptions);
    const errors: Error[] = [];
    const notifications: { method: string; params: unknown }[] = [];
    const client = new Client(transport, {
      requestTimeout: 5000,
      ...options.client,
      onError: (error) => {
        errors.push(error);
        options.client?.onError?.(error);
      },
      onNotification: (method, params) => {
        notifications.push({ method, params });
        return options.client?.onNotification?.(method, params);
      },
    });
    open.push(client);
    if (options.connect !== false) await client.connect();
    return { client, transport, calls: counting.calls, errors, notifications };
  };
}

/** Resolves once `predicate` holds, polling every 10 ms; fails after `timeout` ms. */
export async function until(predicate: () => boolean | Promise<boolean>, timeout = 3000): Promise<void> {
  const deadline = performance.now() + timeout;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The standalone GET stream's open response: the server has registered the stream. */
export function openStandaloneGet(calls: readonly FetchCall[]): boolean {
  return calls.some((call) => call.httpMethod === 'GET' && call.status === 200 && !call.signal?.aborted);
}

/** The era probe (2026-07-28 versioning) a client sends before `initialize`; these tests look past it. */
export const PROBE = 'server/discover';

/**
 * Serves a hand-written `node:http` server on a free local port for the file;
 * its origin (`http://127.0.0.1:<port>`) once started. Closed after the file.
 */
export function useNodeServer(server: Server): () => string {
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return () => origin;
}

import { Client, type ClientOptions, MemoryTransport } from '../../src/index.js';

/** What a {@link durationPeer} answers: the era, and the durations it hands out. */
export interface DurationScript {
  readonly era: 'legacy' | 'modern';
  /** `pollInterval` (`pollIntervalMs` in 2026-07-28), sent as JSON carries it. */
  readonly pollInterval?: number | undefined;
  /** `ttl` (`ttlMs`); `null` is unlimited. */
  readonly ttl?: number | null;
  /** The task completes on this poll (`tasks/get`); never when absent. */
  readonly completeOn?: number;
  /** The `ttlMs` of every `tools/list` result (2026-07-28; absent when not given). */
  readonly listTtlMs?: number;
}

export interface DurationPeer {
  readonly client: Client;
  /** Every `tasks/get` that reached the server. */
  readonly polls: () => number;
  /** Every `tools/list` that reached the server. */
  readonly lists: () => number;
  /** Every method the client sent, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

const STAMP = '2026-01-01T00:00:00Z';

/**
 * A client over a `MemoryTransport` pair whose other end is a server that
 * answers every request at once with the durations the test chose, so a test
 * counts what the client's own timing makes it send. It speaks just enough of
 * either era for `callTool` (2026-07-28: answered with a task) and
 * `tasks.result()` (both eras) to follow task `t-1`, whose every report carries
 * the script's `pollInterval` and `ttl`, and for `listTools()` (its `ttlMs`).
 * Messages cross as JSON text, so only what JSON can hold reaches the client.
 */
export async function durationPeer(script: DurationScript, options: ClientOptions = {}): Promise<DurationPeer> {
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const modern = script.era === 'modern';
  const methods: string[] = [];
  let polls = 0;
  let lists = 0;
  const task = (status: string) =>
    modern
      ? {
          taskId: 't-1',
          status,
          createdAt: STAMP,
          lastUpdatedAt: STAMP,
          ttlMs: script.ttl ?? null,
          pollIntervalMs: script.pollInterval,
        }
      : {
          taskId: 't-1',
          status,
          createdAt: STAMP,
          lastUpdatedAt: STAMP,
          ttl: script.ttl ?? null,
          pollInterval: script.pollInterval,
        };
  const done = { content: [{ type: 'text', text: 'done' }] };
  const answer = (method: string, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    switch (method) {
      case 'server/discover':
        return modern
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : undefined;
      case 'initialize':
        return {
          protocolVersion: params?.protocolVersion,
          capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } },
          serverInfo: { name: 'polled-task', version: '1.0.0' },
        };
      case 'tools/call':
        return modern ? { resultType: 'task', ...task('working') } : { task: task('working') };
      case 'tasks/get': {
        polls++;
        const status = polls === script.completeOn ? 'completed' : 'working';
        if (!modern) return task(status);
        return { resultType: 'complete', ...task(status), ...(status === 'completed' && { result: done }) };
      }
      case 'tools/list':
        lists++;
        return modern
          ? { resultType: 'complete', tools: [], ...(script.listTtlMs !== undefined && { ttlMs: script.listTtlMs }) }
          : { tools: [] };
      case 'tasks/result':
        return done;
      case 'tasks/cancel':
        return modern ? { resultType: 'complete', ...task('cancelled') } : task('cancelled');
      default:
        return {};
    }
  };
  const serving = (async () => {
    for await (const event of serverEnd.messages()) {
      if (event.type !== 'message') continue;
      const message = event.message as { id?: string | number; method?: string; params?: Record<string, unknown> };
      if (message.method === undefined) continue;
      methods.push(message.method);
      if (message.id === undefined) continue;
      const result = answer(message.method, message.params);
      await serverEnd.send(
        result === undefined
          ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id: message.id, result },
      );
    }
  })();
  const client = new Client(clientEnd, { eraCache: new Map(), ...options });
  await client.connect();
  return {
    client,
    polls: () => polls,
    lists: () => lists,
    methods,
    async close() {
      await client.close();
      await serverEnd.close();
      await serving;
    },
  };
}

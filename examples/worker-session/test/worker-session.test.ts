import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedWorkers } from '../../../runtimes/workerd/checked-workers.js';
import { readWranglerConfig } from '../../../runtimes/workerd/wrangler-config.js';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { MAX_QUEUE } from '../session-object.js';

interface RecordedRequest {
  httpMethod: string;
  method?: string;
  headers: Record<string, string>;
  rule: number | null;
}

interface Stats {
  requests: RecordedRequest[];
  methods: Record<string, number>;
}

interface CallAnswer {
  text?: string;
  isError?: boolean;
  sessionId?: string;
  error?: string;
}

interface Snapshot {
  protocolVersion: string;
  sessionId?: string;
  serverInfo: { name: string };
}

interface KvReader {
  get(key: string): Promise<string | null>;
}

/** The main module, bindings and compatibility date a deployment gets. */
const config = readWranglerConfig(new URL('../', import.meta.url));
let servers: Awaited<ReturnType<typeof startHttpServers>>;
/** The Worker as wrangler would deploy it: worker.js with @mcp/core inlined. */
let bundle: string;
const workers = checkedWorkers();

beforeAll(async () => {
  bundle = await workers.bundle(config.main);
  servers = await startHttpServers();
});
afterAll(async () => {
  await servers?.close();
});

/** A recording proxy in front of a sessionful reference server, with optional fault rules. */
async function scenario(rules: unknown[] = []) {
  const response = await fetch(`${servers.faults}/faults`, {
    method: 'POST',
    body: JSON.stringify({ inner: 'stateful', rules }),
  });
  expect(response.status).toBe(201);
  const { mcp, stats } = (await response.json()) as { mcp: string; stats: string };
  return { mcp, stats: async () => (await (await fetch(stats)).json()) as Stats };
}

/** The example worker in workerd, talking to `mcpUrl`; `call` is one invocation. */
function startWorker(mcpUrl: string, variables: Record<string, string> = {}) {
  const { mf } = workers.start(bundle, {
    bindings: { MCP_URL: mcpUrl, ...variables },
    kvNamespaces: config.kvNamespaces,
    durableObjects: config.durableObjects,
    compatibilityDate: config.compatibilityDate,
  });
  return {
    /** One invocation, whatever it answers. */
    async send(path: string, text: string) {
      const response = await mf.dispatchFetch(`http://worker.test${path}?tool=echo&text=${encodeURIComponent(text)}`);
      return { status: response.status, answer: (await response.json()) as CallAnswer };
    },
    async call(path: string, text: string): Promise<CallAnswer> {
      const response = await mf.dispatchFetch(`http://worker.test${path}?tool=echo&text=${encodeURIComponent(text)}`);
      const answer = (await response.json()) as CallAnswer;
      expect(answer.error).toBeUndefined();
      expect(response.status).toBe(200);
      return answer;
    },
    async storedSnapshot(): Promise<Snapshot | null> {
      // Miniflare's KV type resolves to Request without @cloudflare/workers-types: name the one method used.
      const kv = (await mf.getKVNamespace('MCP_SESSIONS')) as unknown as KvReader;
      const stored = await kv.get(`mcp-session:${mcpUrl}`);
      return stored === null ? null : (JSON.parse(stored) as Snapshot);
    },
  };
}

const sessionOf = (request: RecordedRequest) => request.headers['mcp-session-id'];

/** Requests that belong to a session: all but the era probe and the handshake that opens it. */
const afterHandshake = (request: { method?: string | undefined }) =>
  request.method !== 'initialize' && request.method !== 'server/discover';

describe('a Worker keeping its MCP session in KV', () => {
  it('makes calls across three invocations with a single initialize', async () => {
    const { mcp, stats } = await scenario();
    const worker = startWorker(mcp);

    const answers = [];
    for (const text of ['one', 'two', 'three']) answers.push(await worker.call('/call', text));

    expect(answers.map((answer) => answer.text)).toEqual(['one', 'two', 'three']);
    const stored = await worker.storedSnapshot();
    expect(stored?.serverInfo.name).toBe('mcp-reference-server');
    expect(stored?.sessionId).toEqual(expect.any(String));
    expect(answers.map((answer) => answer.sessionId)).toEqual([
      stored?.sessionId,
      stored?.sessionId,
      stored?.sessionId,
    ]);

    const seen = await stats();
    // One era probe (server/discover) and one handshake, on the first invocation only.
    expect(seen.methods).toEqual({
      'server/discover': 1,
      initialize: 1,
      'notifications/initialized': 1,
      'tools/call': 3,
    });
    // POSTs only: no standalone GET stream, and no DELETE that would end the session.
    expect(seen.requests.map((request) => request.httpMethod)).toEqual([
      'POST',
      'POST',
      'POST',
      'POST',
      'POST',
      'POST',
    ]);
    const later = seen.requests.filter(afterHandshake);
    expect(later.map(sessionOf)).toEqual(later.map(() => stored?.sessionId));
  });

  it('renews an expired session transparently and stores the new snapshot', async () => {
    // The server forgets the session at the third tools/call (answering 404).
    const { mcp, stats } = await scenario([
      { match: { method: 'tools/call', nth: 3 }, action: { type: 'expire-session' } },
    ]);
    const worker = startWorker(mcp);

    const first = await worker.call('/call', 'one');
    const second = await worker.call('/call', 'two');
    const oldSession = (await worker.storedSnapshot())?.sessionId;
    const third = await worker.call('/call', 'three');
    const newSession = (await worker.storedSnapshot())?.sessionId;
    const fourth = await worker.call('/call', 'four');

    expect([first.text, second.text, third.text, fourth.text]).toEqual(['one', 'two', 'three', 'four']);
    expect(oldSession).toEqual(expect.any(String));
    expect(newSession).toEqual(expect.any(String));
    expect(newSession).not.toBe(oldSession);
    expect([first, second, third, fourth].map((answer) => answer.sessionId)).toEqual([
      oldSession,
      oldSession,
      newSession,
      newSession,
    ]);

    const seen = await stats();
    // The renewal is a handshake only: the era is already known.
    expect(seen.methods).toEqual({
      'server/discover': 1,
      initialize: 2,
      'notifications/initialized': 2,
      'tools/call': 5,
    });
    const expired = seen.requests.findIndex((request) => request.rule === 0);
    const before = seen.requests.slice(0, expired + 1).filter(afterHandshake);
    const after = seen.requests.slice(expired + 1);
    expect(before.map(sessionOf)).toEqual(before.map(() => oldSession));
    // The renewing handshake, then everything on the new session, the fourth invocation included.
    expect(after[0]?.method).toBe('initialize');
    expect(sessionOf(after[0]!)).toBeUndefined();
    expect(after.slice(1).map(sessionOf)).toEqual(after.slice(1).map(() => newSession));
    expect(after.slice(1).map((request) => request.method)).toEqual([
      'notifications/initialized',
      'tools/call',
      'tools/call',
    ]);
  });
});

describe('a Worker keeping its MCP session in a Durable Object', () => {
  it('shares one initialize even between concurrent first invocations', async () => {
    const { mcp, stats } = await scenario();
    const worker = startWorker(mcp);

    const answers = await Promise.all(['one', 'two', 'three'].map((text) => worker.call('/do/call', text)));
    const fourth = await worker.call('/do/call', 'four');

    expect([...answers, fourth].map((answer) => answer.text)).toEqual(['one', 'two', 'three', 'four']);
    const sessionId = fourth.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    expect(answers.map((answer) => answer.sessionId)).toEqual([sessionId, sessionId, sessionId]);

    const seen = await stats();
    expect(seen.methods).toEqual({
      'server/discover': 1,
      initialize: 1,
      'notifications/initialized': 1,
      'tools/call': 4,
    });
    const later = seen.requests.filter(afterHandshake);
    expect(later.map(sessionOf)).toEqual(later.map(() => sessionId));
  });
});

describe('the Durable Object queue', () => {
  it(`answers 429 to one request more than MAX_QUEUE (${MAX_QUEUE} by default) holds`, async () => {
    // The first tools/call stalls at the server, holding the object while the others arrive.
    const { mcp, stats } = await scenario([
      { match: { method: 'tools/call', nth: 1 }, action: { type: 'stall', ms: 1_500 } },
    ]);
    const worker = startWorker(mcp, { MAX_QUEUE: '2' });
    const first = worker.send('/do/call', 'one');
    const calls = async () => (await stats()).requests.filter((request) => request.method === 'tools/call').length;
    await expect.poll(calls, { timeout: 10_000, interval: 50 }).toBe(1);
    // MAX_QUEUE is 2 here: one of these two waits behind the first, the other is one too many.
    const [second, third] = await Promise.all([worker.send('/do/call', 'two'), worker.send('/do/call', 'three')]);
    expect((await first).status).toBe(200);
    expect([second.status, third.status].sort()).toEqual([200, 429]);
    const refused = second.status === 429 ? second : third;
    expect(refused.answer.error).toBe('2 requests are already running or waiting');
    // Drained, the queue takes requests again.
    expect((await worker.call('/do/call', 'four')).text).toBe('four');
  });
});

/**
 * Every duration a server or an authorization server hands the client, fed
 * the values that break timers (NaN, negatives, 0, 2^31, 1e308, Infinity and
 * arbitrary doubles) through the real code that reads it. A value reaches the
 * client one of two ways, and each property says which:
 * - over the wire, as JSON: only what JSON holds (no NaN, no Infinity), so
 *   `pollInterval`, a task's `ttl`, `ttlMs` get 1e308, -1, 0, 2^31 and doubles;
 * - computed on the client from text: `expires_in` may be a string (`"1e999"`
 *   is Infinity, `"soon"` NaN), `Retry-After` is a header (a long run of
 *   digits is Infinity seconds, a far date 1e13 ms) and an SSE `retry:` field
 *   is a line of a stream (10,000 digits are Infinity ms; anything but digits
 *   is ignored), so those reach NaN and Infinity for real.
 * Throughout, a spy on `setTimeout` checks that no timer is ever asked for a
 * delay that is NaN, negative or above MAX_TIMER.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INTERVAL } from '../../src/client/tasks/index.js';
import {
  Client,
  type ClientOptions,
  HttpError,
  OAuthProvider,
  type OAuthStore,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from '../../src/index.js';
import { MAX_CACHE_TTL_MS } from '../../src/protocol/cache.js';
import { HttpRequester } from '../../src/transport/http/http-requester.js';
import { MAX_SSE_RETRY } from '../../src/transport/http/recovery/backoff.js';
import { MAX_TIMER, timerDelay } from '../../src/util/timers.js';
import { durationPeer } from '../client/duration-peer.js';
import { countingFetch } from '../transport/http/counting-fetch.js';
import { fcParams } from './fc-params.js';

/** The values the issue names, as numbers a computation can yield. */
const HOSTILE = [Number.NaN, -1, 0, 2 ** 31, 1e308, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e12];
/** Those JSON can carry: what a server can put in a result. */
const ON_THE_WIRE = [-1, 0, 2 ** 31, 1e308, -1e308, 1e12, 0.5, 5e-324];

const anyNumber = fc.oneof(fc.constantFrom(...HOSTILE), fc.double());
const wireNumber = fc.oneof(
  fc.constantFrom(...ON_THE_WIRE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1, max: 120_000 }),
);

/** Every delay a `setTimeout` was asked for while the spy was on. */
const delays: unknown[] = [];
let realSetTimeout: typeof setTimeout;
function spyOnTimers(): void {
  realSetTimeout = globalThis.setTimeout;
  const recording = ((handler: () => void, ms?: number, ...rest: unknown[]) => {
    delays.push(ms);
    return realSetTimeout(handler, ms, ...rest);
  }) as typeof setTimeout;
  globalThis.setTimeout = recording;
}
/** No timer was asked for NaN, a negative or more than MAX_TIMER ms (`undefined` is 0, as the callers mean it). */
function expectTimersBounded(): void {
  const bad = delays.filter((ms) => ms !== undefined && !(typeof ms === 'number' && ms >= 0 && ms <= MAX_TIMER));
  expect(bad, 'setTimeout delays out of range').toEqual([]);
}
beforeEach(() => {
  delays.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the client's chain of promises and immediates run, without moving the (fake) clock. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('every duration a server sends keeps the client bounded', () => {
  it('timerDelay: any delay and any bounds give a number from the floor to MAX_TIMER; NaN gives the fallback', () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, anyNumber, (ms, min, max, fallback) => {
        const delay = timerDelay(ms, { min, max, fallback });
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(MAX_TIMER);
        const floor = min >= 0 ? Math.min(min, max >= 0 ? max : MAX_TIMER, MAX_TIMER) : 0;
        expect(delay).toBeGreaterThanOrEqual(floor);
        if (Number.isNaN(ms) && !Number.isNaN(fallback)) {
          expect(delay).toBe(timerDelay(fallback >= 0 ? fallback : floor, { min, max }));
        }
      }),
      fcParams(2000),
    );
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era} tasks: the next poll comes exactly after pollInterval held to 10 ms..60 s, and ttl is only reported`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.option(wireNumber, { nil: undefined }), wireNumber, async (pollInterval, ttl) => {
          vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
          spyOnTimers();
          const peer = await durationPeer({ era, pollInterval, ttl });
          try {
            const reported: unknown[] = [];
            const stop = new AbortController();
            const following = peer.client.tasks
              .result('t-1', { signal: stop.signal, onTaskStatus: (task) => reported.push(task.ttl) })
              .catch((error: unknown) => error);
            while (peer.polls() === 0) await settle();
            await settle();
            // JSON has one zero: a -0 the server writes arrives as 0.
            const expected = Math.min(POLL_INTERVAL.max, Math.max(POLL_INTERVAL.min, pollInterval ?? 1000));
            await vi.advanceTimersByTimeAsync(expected - 1);
            await settle();
            expect(peer.polls()).toBe(1);
            await vi.advanceTimersByTimeAsync(1);
            await settle();
            expect(peer.polls()).toBe(2);
            stop.abort();
            expect(await following).toBeInstanceOf(Error);
            expect(reported).toEqual([JSON.parse(JSON.stringify(ttl))]);
            expectTimersBounded();
          } finally {
            globalThis.setTimeout = realSetTimeout;
            vi.useRealTimers();
            await peer.close();
          }
        }),
        fcParams(40),
      );
    });
  }

  it('2026-07-28 ttlMs: a result is served from the cache only while fresh, and never past an hour', async () => {
    await fc.assert(
      fc.asyncProperty(wireNumber, async (listTtlMs) => {
        vi.useFakeTimers({ toFake: ['Date'] });
        const peer = await durationPeer({ era: 'modern', listTtlMs });
        try {
          await peer.client.listTools();
          await peer.client.listTools();
          // Served from the cache with a ttlMs of a millisecond or more; 0 or negative is stale at
          // once; less than a millisecond may be either (the clock counts whole milliseconds).
          const served = peer.lists();
          if (listTtlMs >= 1) expect(served).toBe(1);
          if (listTtlMs <= 0) expect(served).toBe(2);
          // However long the server said, an hour later the list is asked for again.
          vi.setSystemTime(Date.now() + MAX_CACHE_TTL_MS + 1);
          await peer.client.listTools();
          expect(peer.lists()).toBe(served + 1);
        } finally {
          vi.useRealTimers();
          await peer.close();
        }
      }),
      fcParams(60),
    );
  });

  describe('over HTTP', () => {
    let server: Server;
    let base = '';
    let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};
    beforeAll(async () => {
      server = createServer(async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        handle(req, res, body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** A JSON-RPC-looking POST to `/mcp` through `requester`, safe to repeat. */
    const post = (requester: HttpRequester, signal: AbortSignal) =>
      requester.send({
        method: 'POST',
        url: new URL('/mcp', base),
        headers: new Headers({ 'content-type': 'application/json' }),
        body: '{}',
        signal,
        idempotent: true,
      });

    const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

    /** A store that keeps JSON text, as a file or `localStorage` does: what JSON cannot hold is lost. */
    class JsonStore implements OAuthStore {
      readonly #entries = new Map<string, string>();
      async get(key: string) {
        const text = this.#entries.get(key);
        return text === undefined ? undefined : JSON.parse(text);
      }
      async set(key: string, value: unknown) {
        this.#entries.set(key, JSON.stringify(value));
      }
      async delete(key: string) {
        this.#entries.delete(key);
      }
    }

    it('OAuth expires_in (a number, or a string the client turns into one): no authorization loop, at most one refresh a request', async () => {
      const expiresIn = fc.oneof(
        wireNumber,
        fc.constantFrom('1e999', '-1e999', 'soon', '', '0', '-1', '2147483648', '1e308', 'Infinity', 'NaN'),
        fc.double().map(String),
      );
      await fc.assert(
        fc.asyncProperty(expiresIn, async (expires_in) => {
          let generation = 0;
          let access = '';
          let refresh = '';
          let tokenRequests = 0;
          handle = (req, res, body) => {
            const url = new URL(req.url ?? '/', base);
            if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
              return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
            }
            if (url.pathname === '/.well-known/oauth-authorization-server') {
              return json(res, 200, {
                issuer: base,
                authorization_endpoint: `${base}/authorize`,
                token_endpoint: `${base}/token`,
                code_challenge_methods_supported: ['S256'],
              });
            }
            if (url.pathname === '/token') {
              tokenRequests++;
              const params = new URLSearchParams(body);
              const known = params.get('code') === 'code' || params.get('refresh_token') === refresh;
              if (!known) return json(res, 400, { error: 'invalid_grant' });
              generation++;
              access = `at-${generation}`;
              refresh = `rt-${generation}`;
              return json(res, 200, { access_token: access, token_type: 'Bearer', expires_in, refresh_token: refresh });
            }
            if (req.headers.authorization === `Bearer ${access}`) return json(res, 200, { ok: true });
            json(
              res,
              401,
              {},
              { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
            );
          };
          let authorizations = 0;
          const auth = new OAuthProvider({
            redirectUri: 'http://localhost:3000/callback',
            clients: { [base]: { client_id: 'pre-registered' } },
            store: new JsonStore(),
            authorize: async (url) => {
              authorizations++;
              const back = new URL('http://localhost:3000/callback');
              back.searchParams.set('code', 'code');
              back.searchParams.set('state', url.searchParams.get('state') ?? '');
              return back;
            },
          });
          spyOnTimers();
          try {
            const requester = new HttpRequester(new URL('/mcp', base), { auth });
            const posts = 3;
            for (let round = 0; round < posts; round++) {
              const response = await post(requester, new AbortController().signal);
              expect(response.status).toBe(200);
              await response.body?.cancel();
            }
            expect(authorizations).toBe(1);
            // The code, then at most one refresh for each request (a token that expires at once).
            expect(tokenRequests).toBeLessThanOrEqual(1 + posts);
            expectTimersBounded();
          } finally {
            globalThis.setTimeout = realSetTimeout;
          }
        }),
        fcParams(40),
      );
    });

    it('Retry-After (seconds or an HTTP date): waited only up to retry.maxDelay, attempts bounded, never a throw', async () => {
      const retryAfter = fc.oneof(
        fc.constantFrom('0', '-1', '2147484', '9'.repeat(400), '1e308', 'Infinity', 'NaN', ' ', 'soon'),
        fc.integer({ min: 0, max: 2 ** 53 }).map(String),
        fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toUTCString()),
        fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
      );
      await fc.assert(
        fc.asyncProperty(retryAfter, fc.constantFrom(...HOSTILE, 50), async (header, maxDelay) => {
          let attempts = 0;
          handle = (_req, res) => {
            attempts++;
            res.writeHead(503, { 'retry-after': header, 'content-type': 'text/plain' }).end('busy');
          };
          spyOnTimers();
          try {
            const requester = new HttpRequester(new URL('/mcp', base), {
              retry: { maxRetries: 2, baseDelay: 1, maxDelay },
            });
            const stop = new AbortController();
            // A wait the client honours is cut short: the property is what it schedules, not how long it takes.
            const cut = realSetTimeout(() => stop.abort(new Error('cut short')), 100);
            const outcome = await post(requester, stop.signal)
              .then(async (response) => {
                await response.body?.cancel();
                return response.status;
              })
              .catch((error: unknown) => error);
            clearTimeout(cut);
            expect(outcome === 503 || (outcome instanceof Error && !(outcome instanceof HttpError))).toBe(true);
            expect(attempts).toBeGreaterThanOrEqual(1);
            expect(attempts).toBeLessThanOrEqual(3);
            expectTimersBounded();
          } finally {
            globalThis.setTimeout = realSetTimeout;
          }
        }),
        fcParams(40),
      );
    });

    it('SSE retry: a resumed POST stream waits what was sent, capped at 10 min; the GET stream reopens no sooner than minDelay', async () => {
      const retryField = fc.oneof(
        fc.constantFrom('0', '1', '007', '2147483648', `1${'0'.repeat(308)}`, '9'.repeat(10_000)),
        fc.nat({ max: 2 * MAX_SSE_RETRY }).map(String),
        fc.bigInt({ min: 0n, max: 10n ** 400n }).map(String),
        // Not digits only: the SSE spec ignores the field (HTML, server-sent events, §9.2.6).
        fc.constantFrom('-1', '1e12', 'NaN', 'Infinity', ' 5', '', '5.5', '+5', '0x10', '1_000'),
      );
      const minDelay = 1000;
      await fc.assert(
        fc.asyncProperty(retryField, async (retry) => {
          const honoured = /^[0-9]+$/.test(retry) ? Math.min(Number(retry), MAX_SSE_RETRY) : undefined;
          let callId: unknown;
          handle = (req, res, body) => {
            const sse = (text: string) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(text);
            if (req.method === 'DELETE') return res.writeHead(200).end();
            if (req.method === 'GET') {
              // The call's stream resumed: its response. Any other GET is the standalone stream.
              if (req.headers['last-event-id'] === 'post-1') {
                const result = { content: [{ type: 'text', text: 'resumed' }] };
                return sse(`id: post-2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: callId, result })}\n\n`);
              }
              return sse(`id: get-1\nretry: ${retry}\ndata:\n\n`);
            }
            const message = JSON.parse(body) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
            if (message.method === 'initialize') {
              const result = {
                protocolVersion: message.params?.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'retry-field', version: '1.0.0' },
              };
              return json(res, 200, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': 's-1' });
            }
            if (message.id === undefined) return res.writeHead(202).end();
            if (message.method !== 'tools/call') return json(res, 200, { jsonrpc: '2.0', id: message.id, result: {} });
            // The call's stream: a priming event with the retry: field, then it ends before the response.
            callId = message.id;
            sse(`id: post-1\nretry: ${retry}\ndata:\n\n`);
          };
          const connect = async (transport: StreamableHttpTransportOptions, client: ClientOptions = {}) => {
            const counting = countingFetch();
            const connected = new Client(
              new StreamableHttpTransport(`${base}/mcp`, { ...transport, fetch: counting.fetch }),
              {
                protocolVersion: '2025-11-25',
                // No timeout of the client's own shares a delay with the waits under test.
                requestTimeout: MAX_TIMER,
                maxTotalTimeout: 0,
                ...client,
              },
            );
            await connected.connect();
            return { client: connected, calls: counting.calls };
          };
          /** Lets real I/O (and loading code on demand) run until `done` holds, for 10 s at most; the fake clock stays. */
          const until = async (done: () => boolean) => {
            const deadline = Date.now() + 10_000;
            while (!done() && Date.now() < deadline) await settle();
          };
          // `performance` too: each fetch call's `startedAt` is then the fake time it was made.
          vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
          spyOnTimers();
          const clients: Client[] = [];
          try {
            // (a) A POST stream that ends before its response is resumed after `retry:`, held to MAX_SSE_RETRY.
            const poster = await connect({ standaloneStream: false });
            clients.push(poster.client);
            const resumed = () => poster.calls.some((call) => call.headers.get('last-event-id') === 'post-1');
            const scheduled = delays.length;
            const outcome = poster.client.callTool('echo').catch((error: unknown) => error);
            if (honoured === undefined) await until(resumed);
            else {
              await until(() => delays.slice(scheduled).includes(honoured));
              expect(delays.slice(scheduled), 'the wait before resuming').toContain(honoured);
              await vi.advanceTimersByTimeAsync(Math.max(0, honoured - 1));
              await settle();
              expect(resumed(), `resumed before ${honoured} ms`).toBe(honoured === 0);
              await vi.advanceTimersByTimeAsync(1);
              await until(resumed);
            }
            expect(resumed()).toBe(true);
            expect(await outcome).toMatchObject({ text: 'resumed' });

            // (b) The standalone GET stream ends after each event and is reopened after `retry:`,
            // never sooner than minDelay and never later than MAX_SSE_RETRY.
            const waits = delays.length;
            const listener = await connect({ streamReconnect: { minDelay } }, { onNotification: () => {} });
            clients.push(listener.client);
            const opened = () =>
              listener.calls.filter((call) => call.httpMethod === 'GET').map((call) => call.startedAt);
            const reopenAfter = Math.max(minDelay, honoured ?? 0);
            // The first stream ended and the wait before reopening is scheduled (a client that
            // gets the wait wrong shows it below, by reopening too soon or too late).
            await until(() => delays.slice(waits).includes(reopenAfter));
            // A window of fake time, moved a quarter of minDelay at a time so that a client that
            // reopens at once would do so many times over.
            const window = 4 * minDelay;
            for (let elapsed = 0; elapsed < window; elapsed += minDelay / 4) {
              await vi.advanceTimersByTimeAsync(minDelay / 4);
              await settle();
              await settle();
            }
            const openings = opened();
            expect(openings.length, `GET streams opened in ${window} ms`).toBeLessThanOrEqual(1 + window / minDelay);
            const gaps = openings.slice(1).map((at, n) => at - (openings[n] ?? 0));
            expect(
              gaps.filter((gap) => gap < minDelay),
              'reopened sooner than minDelay',
            ).toEqual([]);
            expect(delays.slice(waits), 'the wait before reopening').toContain(reopenAfter);
            if (reopenAfter <= window) expect(openings.length).toBeGreaterThanOrEqual(2);
            else {
              expect(openings).toHaveLength(1);
              await vi.advanceTimersByTimeAsync(reopenAfter - window - 1);
              await settle();
              expect(opened(), `reopened before ${reopenAfter} ms`).toHaveLength(1);
              await vi.advanceTimersByTimeAsync(1);
              await until(() => opened().length === 2);
              expect(opened()).toHaveLength(2);
            }
            expectTimersBounded();
          } finally {
            globalThis.setTimeout = realSetTimeout;
            vi.useRealTimers();
            await Promise.all(clients.map((client) => client.close()));
          }
        }),
        fcParams(40),
      );
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../http/serve.mjs';
import {
  type Message,
  messageOf,
  openSession,
  post,
  readEvents,
  readUntilResponse,
  resultText,
  type Session,
  sseEvents,
  toolCall,
} from './http-peer.js';

interface Stats {
  requests: { httpMethod: string; method?: string; headers: Record<string, string>; rule: number | null }[];
  methods: Record<string, number>;
  executions: number;
  redirected: { httpMethod: string; method?: string; headers: Record<string, string> }[];
  rules: { matched: number; applied: number }[];
  sessions: number;
}

let servers: Awaited<ReturnType<typeof startHttpServers>>;

beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers.close());

/** Creates a scenario through the control API; returns its MCP URL and a stats reader. */
async function scenario(script: Record<string, unknown>) {
  const response = await fetch(`${servers.faults}/faults`, { method: 'POST', body: JSON.stringify(script) });
  expect(response.status).toBe(201);
  const { mcp, stats } = (await response.json()) as { mcp: string; stats: string };
  return { mcp, stats: async () => (await (await fetch(stats)).json()) as Stats };
}

/** A scenario whose only rule acts on `tools/call`, plus an open session on it. */
async function onToolCall(action: Record<string, unknown>, match: Record<string, unknown> = {}) {
  const created = await scenario({ rules: [{ match: { method: 'tools/call', ...match }, action }] });
  const session: Session = await openSession(created.mcp);
  return { ...created, session };
}

describe('status', () => {
  it('answers 429 with Retry-After to the first call only, and the retry runs once', async () => {
    const { mcp, session, stats } = await onToolCall(
      { type: 'status', status: 429, headers: { 'retry-after': '1' } },
      { times: 1 },
    );
    const limited = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    const retried = await post(mcp, toolCall(3, 'echo', { text: 'a' }), session.headers);
    expect(resultText(messageOf((await readUntilResponse(retried, 3)).at(-1)!))).toBe('a');
    expect(await stats()).toMatchObject({ executions: 1, methods: { 'tools/call': 2 }, rules: [{ applied: 1 }] });
  });

  it('answers 503 with an HTTP-date Retry-After and a JSON body on the nth match', async () => {
    const date = new Date(Date.now() + 2_000).toUTCString();
    const { mcp, session } = await onToolCall(
      { type: 'status', status: 503, headers: { 'retry-after': date }, body: { error: 'busy' } },
      { nth: 2 },
    );
    const first = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const second = await post(mcp, toolCall(3, 'echo', { text: 'a' }), session.headers);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe(date);
    expect(await second.json()).toEqual({ error: 'busy' });
  });
});

describe('connection resets', () => {
  it('reset-before drops the connection and the server never runs the call', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'reset-before' });
    await expect(post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers)).rejects.toThrow(TypeError);
    expect(await stats()).toMatchObject({ executions: 0, methods: { 'tools/call': 1 } });
  });

  it('reset-after drops the connection after the server ran the call', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'reset-after' });
    await expect(post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers)).rejects.toThrow(TypeError);
    expect(await stats()).toMatchObject({ executions: 1 });
  });

  it('a refused URL refuses connections', async () => {
    await expect(fetch(servers.refused)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });
});

describe('drop-sse-after', () => {
  it('ends the stream after N events, and the rest is replayed after Last-Event-ID', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'drop-sse-after', events: 2 });
    const call = await post(
      mcp,
      toolCall(2, 'slow', { steps: 2, intervalMs: 20 }, { progressToken: 't' }),
      session.headers,
    );
    const seen = await readEvents(call, () => false);
    expect(seen.map((event) => messageOf(event)?.method)).toEqual([undefined, 'notifications/progress']);

    const resumed = await fetch(mcp, {
      headers: { accept: 'text/event-stream', ...session.headers, 'last-event-id': seen[1]!.id! },
    });
    const rest = (await readUntilResponse(resumed, 2)).map(messageOf);
    expect(resultText(rest.at(-1))).toBe('done after 2 steps');
    const lastEventIds = (await stats()).requests.map((request) => request.headers['last-event-id']);
    expect(lastEventIds.at(-1)).toBe(seen[1]!.id);
  });

  it('with how: reset, the stream breaks instead of ending', async () => {
    const { mcp, session } = await onToolCall({ type: 'drop-sse-after', events: 1, how: 'reset' });
    const call = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    await expect(readEvents(call, () => false)).rejects.toThrow();
  });
});

describe('sessions', () => {
  it('expire-session answers 404 and forgets the session for good', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'expire-session' }, { times: 1 });
    const expired = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    expect(expired.status).toBe(404);
    const again = await post(mcp, toolCall(3, 'echo', { text: 'a' }), session.headers);
    expect(again.status).toBe(404);
    expect(await stats()).toMatchObject({ executions: 0, sessions: 0, rules: [{ matched: 2, applied: 1 }] });
  });
});

describe('redirect', () => {
  it('points at the other origin, which records the headers that arrived there', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'redirect', status: 307 }, { times: 2 });
    const headers = { ...session.headers, authorization: 'Bearer secret', 'x-probe': 'kept' };
    const manual = await post(mcp, toolCall(2, 'echo', { text: 'a' }), headers, { redirect: 'manual' });
    expect(manual.status).toBe(307);
    expect(manual.headers.get('location')).toMatch(new RegExp(`^${servers.other}/faults/s\\d+/target$`));

    const followed = await post(mcp, toolCall(3, 'echo', { text: 'b' }), headers);
    expect(followed.status).toBe(200);
    await followed.body?.cancel();
    const seen = await stats();
    expect(seen.redirected).toHaveLength(1);
    expect(seen.redirected[0]?.headers['x-probe']).toBe('kept');
    expect(seen.redirected[0]?.headers['mcp-session-id']).toBe(session.id);
    // undici drops Authorization on a cross-origin redirect; the record shows it.
    expect(seen.redirected[0]?.headers).not.toHaveProperty('authorization');
    expect(seen.requests.at(-1)?.headers.authorization).toBe('Bearer secret');
  });
});

describe('stalls and held streams', () => {
  it('stall without ms never answers, and the call never runs', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'stall' });
    const call = post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers, { signal: AbortSignal.timeout(200) });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await stats()).executions).toBe(0);
  });

  it('stall with ms answers for real after the delay', async () => {
    const { mcp, session } = await onToolCall({ type: 'stall', ms: 150 });
    const started = Date.now();
    const call = await post(mcp, toolCall(2, 'echo', { text: 'late' }), session.headers);
    expect(resultText(messageOf((await readUntilResponse(call, 2)).at(-1)!))).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('hold-open sends the result, then keeps the stream open with comments', async () => {
    const { mcp, session } = await onToolCall({ type: 'hold-open', commentEveryMs: 30 });
    const call = await post(mcp, toolCall(2, 'echo', { text: 'held' }), session.headers);
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': held open')) text += (await reader.read()).value;
    expect(text).toContain('"text":"held"');
    expect(text.indexOf('"text":"held"')).toBeLessThan(text.indexOf(': held open'));
    await reader.cancel();
  });
});

describe('malformed and oversized answers', () => {
  it('not-json answers a body that does not parse', async () => {
    const { mcp, session } = await onToolCall({ type: 'malformed', kind: 'not-json' });
    const response = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    expect(response.headers.get('content-type')).toBe('application/json');
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });

  it('not-jsonrpc answers JSON that is not a JSON-RPC message', async () => {
    const { mcp, session } = await onToolCall({ type: 'malformed', kind: 'not-jsonrpc' });
    const body = (await (await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers)).json()) as Message;
    expect(body.jsonrpc).toBeUndefined();
  });

  it('sse-bad-data puts an event of invalid JSON before the real result', async () => {
    const { mcp, session } = await onToolCall({ type: 'malformed', kind: 'sse-bad-data' });
    const response = await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers);
    const events = sseEvents(response);
    const bad = (await events.next()).value!;
    expect(() => JSON.parse(bad.data)).toThrow(SyntaxError);
    const rest: Message[] = [];
    for await (const event of events) if (event.data !== '') rest.push(JSON.parse(event.data) as Message);
    expect(resultText(rest.at(-1))).toBe('a');
  });

  it('oversized answers a valid JSON-RPC response of exactly the size asked for', async () => {
    const { mcp, session } = await onToolCall({ type: 'oversized', bytes: 300_000 });
    const text = await (await post(mcp, toolCall(2, 'echo', { text: 'a' }), session.headers)).text();
    expect(text.length).toBe(300_000);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: 2 });
  });
});

describe('control API', () => {
  it('records the headers of every request', async () => {
    const { mcp, session, stats } = await onToolCall({ type: 'status', status: 500 });
    await post(mcp, toolCall(2, 'echo', { text: 'a' }), { ...session.headers, authorization: 'Bearer t' });
    const last = (await stats()).requests.at(-1)!;
    expect(last).toMatchObject({ httpMethod: 'POST', method: 'tools/call', rule: 0 });
    expect(last.headers).toMatchObject({
      authorization: 'Bearer t',
      'mcp-session-id': session.id,
      'mcp-protocol-version': '2025-11-25',
      'content-type': 'application/json',
    });
  });

  it('rejects an invalid script with 400 naming the problem', async () => {
    const response = await fetch(`${servers.faults}/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ action: { type: 'explode' } }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('type');
  });

  it('answers 404 for a scenario that does not exist, or was deleted', async () => {
    const { mcp } = await scenario({});
    const base = mcp.replace(/\/mcp$/, '');
    expect((await fetch(base, { method: 'DELETE' })).status).toBe(204);
    expect((await post(mcp, toolCall(1, 'echo', { text: 'a' }))).status).toBe(404);
  });
});

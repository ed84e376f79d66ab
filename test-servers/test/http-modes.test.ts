import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../http/serve.mjs';
import {
  initializeRequest,
  type Message,
  messageOf,
  openSession,
  post,
  readEvents,
  readUntilResponse,
  resultText,
  sseEvents,
  toolCall,
} from './http-peer.js';

let servers: Awaited<ReturnType<typeof startHttpServers>>;
let base: string;

beforeAll(async () => {
  servers = await startHttpServers();
  base = servers.modes;
});
afterAll(() => servers.close());

describe('/stateful (v1, sessions, SSE responses)', () => {
  it('answers initialize over SSE with an Mcp-Session-Id', async () => {
    const response = await post(`${base}/stateful`, initializeRequest());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    const [event] = await readUntilResponse(response, 1);
    expect(messageOf(event!)?.result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('sends a sampling request on the call stream and finishes the call once the client answers', async () => {
    const session = await openSession(`${base}/stateful`);
    const call = await post(`${base}/stateful`, toolCall(2, 'sample', { prompt: 'hi' }), session.headers);
    const events = sseEvents(call);
    const request = messageOf((await events.next()).value!);
    expect(request).toMatchObject({ method: 'sampling/createMessage' });
    const answer = { role: 'assistant', content: { type: 'text', text: 'sampled!' }, model: 'test' };
    const ack = await post(`${base}/stateful`, { jsonrpc: '2.0', id: request?.id, result: answer }, session.headers);
    expect(ack.status).toBe(202);
    expect(resultText(messageOf((await events.next()).value!))).toBe('sampled!');
    await events.return(undefined);
  });

  it('delivers connection-wide notifications on the standalone GET stream, and ends the session on DELETE', async () => {
    const session = await openSession(`${base}/stateful`);
    const stream = await fetch(`${base}/stateful`, { headers: { accept: 'text/event-stream', ...session.headers } });
    expect(stream.status).toBe(200);
    const call = await post(`${base}/stateful`, toolCall(2, 'add-tool'), session.headers);
    await readUntilResponse(call, 2);
    const [notice] = await readEvents(stream, () => true);
    expect(messageOf(notice!)).toMatchObject({ method: 'notifications/tools/list_changed' });

    const deleted = await fetch(`${base}/stateful`, { method: 'DELETE', headers: session.headers });
    expect(deleted.status).toBe(200);
    const after = await post(`${base}/stateful`, toolCall(3, 'echo', { text: 'x' }), session.headers);
    expect(after.status).toBe(404);
  });

  it('serves the minimal profile when the URL asks for it', async () => {
    const response = await post(`${base}/stateful?profile=minimal`, initializeRequest());
    const [event] = await readUntilResponse(response, 1);
    expect(messageOf(event!)?.result).toMatchObject({ capabilities: { tools: {} } });
    expect(Object.keys((messageOf(event!)?.result as Message | undefined)?.capabilities ?? {})).toEqual(['tools']);
  });
});

describe('/stateless (v1, no sessions, JSON responses)', () => {
  it('answers initialize with application/json and no session id', async () => {
    const response = await post(`${base}/stateless`, initializeRequest());
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(((await response.json()) as Message).result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('answers a call without any handshake, and refuses the GET stream with 405', async () => {
    const response = await post(`${base}/stateless`, toolCall(7, 'echo', { text: 'alone' }));
    expect(resultText((await response.json()) as Message)).toBe('alone');
    const get = await fetch(`${base}/stateless`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });
});

describe('/resumable (v1, sessions, event store)', () => {
  it('replays the rest of a call stream after Last-Event-ID, ending with the result', async () => {
    const session = await openSession(`${base}/resumable`);
    const aborter = new AbortController();
    const call = await post(
      `${base}/resumable`,
      toolCall(2, 'slow', { steps: 3, intervalMs: 40 }, { progressToken: 'p' }),
      session.headers,
      { signal: aborter.signal },
    );
    const firstTwo = await readEvents(call, (event) => messageOf(event)?.method === 'notifications/progress');
    expect(firstTwo[0]).toMatchObject({ data: '', retry: 100 });
    aborter.abort();
    // As the spec asks, wait the `retry` hint: the server notices the dropped stream asynchronously.
    await new Promise((resolve) => setTimeout(resolve, firstTwo[0]!.retry));

    const resumed = await fetch(`${base}/resumable`, {
      headers: { accept: 'text/event-stream', ...session.headers, 'last-event-id': firstTwo[1]!.id! },
    });
    expect(resumed.status).toBe(200);
    const rest = (await readUntilResponse(resumed, 2)).map(messageOf);
    expect(rest.map((message) => (message?.params as { progress?: number } | undefined)?.progress)).toEqual([
      2,
      3,
      undefined,
    ]);
    expect(resultText(rest.at(-1))).toBe('done after 3 steps');
  });
});

describe('/legacy-sse (2024-11-05 HTTP+SSE)', () => {
  it('announces its endpoint, and answers POSTs there on the stream', async () => {
    const aborter = new AbortController();
    const stream = await fetch(`${base}/legacy-sse`, {
      headers: { accept: 'text/event-stream' },
      signal: aborter.signal,
    });
    const events = sseEvents(stream);
    const endpoint = (await events.next()).value!;
    expect(endpoint.event).toBe('endpoint');
    expect(endpoint.data).toMatch(/^\/legacy-sse\/messages\?sessionId=/);

    const accepted = await post(new URL(endpoint.data, base).href, initializeRequest(9));
    expect(accepted.status).toBe(202);
    const answer = messageOf((await events.next()).value!);
    expect(answer).toMatchObject({ id: 9, result: { serverInfo: { name: 'mcp-reference-server' } } });
    aborter.abort();
  });

  it('refuses a Streamable HTTP initialize with 405, so clients fall back', async () => {
    const response = await post(`${base}/legacy-sse`, initializeRequest());
    expect(response.status).toBe(405);
  });
});

describe('/v2 (v2 SDK, both eras)', () => {
  it('serves the 2025 era in sessions', async () => {
    const response = await post(`${base}/v2`, initializeRequest());
    expect(response.headers.get('mcp-session-id')).not.toBeNull();
    const [event] = await readUntilResponse(response, 1);
    expect(messageOf(event!)?.result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('answers server/discover on 2026-07-28 without a handshake', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
    };
    const response = await post(
      `${base}/v2`,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    const body = (await response.json()) as Message;
    expect(body.result).toMatchObject({ supportedVersions: expect.arrayContaining(['2026-07-28']) });
  });
});

describe('CORS', () => {
  const origin = 'http://page.test:4173';

  it('answers a preflight with 204, echoing the origin and any Mcp-Param-* header asked for', async () => {
    const response = await fetch(`${base}/stateful`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id, mcp-param-region',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    const allowed = response.headers.get('access-control-allow-headers')?.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'last-event-id', 'mcp-name', 'mcp-param-region']));
  });

  it('exposes the session id and the other MCP headers on real responses', async () => {
    const response = await post(`${base}/stateful`, initializeRequest(), { origin });
    await response.body?.cancel();
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'mcp-session-id, mcp-protocol-version, www-authenticate, retry-after',
    );
  });

  it('sends no CORS header at all under /no-cors/', async () => {
    const preflight = await fetch(`${base}/no-cors/stateless`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    const response = await post(`${base}/no-cors/stateless`, initializeRequest(), { origin });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    for (const path of ['stateful', 'resumable', 'v2', 'legacy-sse']) {
      const other = await fetch(`${base}/no-cors/${path}`, { method: 'OPTIONS', headers: { origin } });
      expect([other.status, other.headers.get('access-control-allow-origin')]).toEqual([405, null]);
    }
  });

  it('puts CORS on the legacy transport too', async () => {
    const response = await fetch(`${base}/legacy-sse/messages`, { method: 'OPTIONS', headers: { origin } });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
  });
});

it('refuses a POST whose Accept lacks text/event-stream with 406, as the SDK transport does', async () => {
  const response = await post(`${base}/stateless`, initializeRequest(), { accept: 'application/json' });
  expect(response.status).toBe(406);
});

import { describe, expect, it } from 'vitest';
import { openStandaloneGet, until, useClients, useHttpServers } from './harness.js';
import type { FaultScript } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** A token provider that hands out `token-1`, `token-2`, … and counts its calls. */
function tokens() {
  const provider = { calls: 0, next: () => `token-${++provider.calls}` };
  return provider;
}

describe('tokenProvider', () => {
  it('sends the token as Authorization: Bearer', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client } = await open(scenario.mcp, { transport: { tokenProvider: () => 'secret' } });
    await client.callTool('echo', { text: 'x' });
    const { requests } = await scenario.stats();
    expect(requests.map((request) => request.headers.authorization)).toEqual(requests.map(() => 'Bearer secret'));
  });

  it('sends the token raw under authHeader, and no Authorization', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client } = await open(scenario.mcp, {
      transport: { tokenProvider: () => 'raw-secret', authHeader: 'x-api-key' },
    });
    await client.callTool('echo', { text: 'x' });
    const { requests } = await scenario.stats();
    expect(requests.map((request) => request.headers['x-api-key'])).toEqual(requests.map(() => 'raw-secret'));
    expect(requests.filter((request) => request.headers.authorization !== undefined)).toEqual([]);
  });

  it('overrides a static Authorization header', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client } = await open(scenario.mcp, {
      transport: { headers: { Authorization: 'Bearer static' }, tokenProvider: () => 'dynamic' },
    });
    await client.callTool('echo', { text: 'x' });
    const { requests } = await scenario.stats();
    expect(requests.map((request) => request.headers.authorization)).toEqual(requests.map(() => 'Bearer dynamic'));
  });

  it('is asked for every request: POSTs, the GET stream and the DELETE', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const provider = tokens();
    const { client, calls } = await open(scenario.mcp, { transport: { tokenProvider: provider.next } });
    await client.callTool('echo', { text: 'x' });
    await until(() => openStandaloneGet(calls));
    await client.close();

    const { requests } = await scenario.stats();
    expect(new Set(requests.map((request) => request.httpMethod))).toEqual(new Set(['POST', 'GET', 'DELETE']));
    expect(provider.calls).toBe(requests.length);
    const sent = requests.map((request) => request.headers.authorization);
    expect(new Set(sent).size).toBe(requests.length);
    expect(sent.every((header) => /^Bearer token-\d+$/.test(header ?? ''))).toBe(true);
  });
});

describe('redirects', () => {
  // Stateless unless said otherwise: the session id stays on the endpoint's
  // origin, so a stateful server behind another origin would refuse the call.
  const redirectCalls = (
    location?: string,
    inner: FaultScript['inner'] = 'stateless',
    times?: number,
  ): FaultScript => ({
    inner,
    rules: [
      {
        match: times === undefined ? { method: 'tools/call' } : { method: 'tools/call', times },
        action: location === undefined ? { type: 'redirect' } : { type: 'redirect', location },
      },
    ],
  });

  it('never carries Authorization to another origin', async () => {
    const scenario = await servers.scenario(redirectCalls());
    const { client } = await open(scenario.mcp, {
      transport: { tokenProvider: () => 'secret', standaloneStream: false },
    });
    expect((await client.callTool('echo', { text: 'moved' })).text).toBe('moved');
    const { redirected, requests } = await scenario.stats();
    expect(requests.find((request) => request.method === 'tools/call')?.headers.authorization).toBe('Bearer secret');
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.method).toBe('tools/call');
    expect(redirected[0]?.headers.host).toBe(new URL(servers.other).host);
    expect(redirected[0]?.headers.authorization).toBeUndefined();
  });

  it('never carries the custom auth header to another origin', async () => {
    const scenario = await servers.scenario(redirectCalls());
    const { client } = await open(scenario.mcp, {
      transport: { tokenProvider: () => 'raw-secret', authHeader: 'x-api-key', standaloneStream: false },
    });
    expect((await client.callTool('echo', { text: 'moved' })).text).toBe('moved');
    const { redirected } = await scenario.stats();
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.headers['x-api-key']).toBeUndefined();
    expect(redirected[0]?.headers.authorization).toBeUndefined();
  });

  it('never carries the custom headers or the session id to another origin', async () => {
    const scenario = await servers.scenario(redirectCalls(undefined, 'stateful', 1));
    const { client, transport } = await open(scenario.mcp, {
      transport: { headers: { 'X-Tenant': 'tenant-secret', Accept: 'text/plain' }, standaloneStream: false },
    });
    // Without its session id, the stateful server behind the other origin refuses the call.
    await expect(client.callTool('echo', { text: 'moved' })).rejects.toMatchObject({ name: 'HttpError', status: 400 });
    const { redirected, requests } = await scenario.stats();
    const sent = requests.find((request) => request.method === 'tools/call');
    expect(sent?.headers).toMatchObject({ 'x-tenant': 'tenant-secret', 'mcp-session-id': transport.sessionId });
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.headers.host).toBe(new URL(servers.other).host);
    expect(redirected[0]?.headers['x-tenant']).toBeUndefined();
    expect(redirected[0]?.headers['mcp-session-id']).toBeUndefined();
    // The transport's own Accept is no custom header to drop.
    expect(redirected[0]?.headers.accept).toBe('application/json, text/event-stream');
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it('a retry after a redirect to another origin carries the headers the hop dropped: the hop changed its own copy', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const calls: { url: string; headers: Headers }[] = [];
    // The real server, except that the first tools/call is sent to another origin, which answers 503.
    const fetchThrough: typeof fetch = async (input, init) => {
      const url = String(input);
      if (typeof init?.body !== 'string' || !init.body.includes('"tools/call"')) return fetch(input, init);
      calls.push({ url, headers: new Headers(init.headers) });
      if (calls.length === 1)
        return new Response(null, { status: 307, headers: { location: `${servers.other}/away` } });
      if (url.startsWith(servers.other)) return new Response('busy', { status: 503 });
      return fetch(input, init);
    };
    const { client, transport } = await open(scenario.mcp, {
      transport: {
        fetch: fetchThrough,
        headers: { 'X-Tenant': 'tenant-secret' },
        retry: { maxRetries: 1, baseDelay: 1 },
        standaloneStream: false,
      },
    });
    expect((await client.callTool('echo', { text: 'retried' })).text).toBe('retried');
    expect(calls.map((call) => new URL(call.url).origin)).toEqual([
      new URL(scenario.mcp).origin,
      new URL(servers.other).origin,
      new URL(scenario.mcp).origin,
    ]);
    expect(calls[1]?.headers.get('mcp-session-id')).toBeNull();
    expect(calls[1]?.headers.get('x-tenant')).toBeNull();
    // The retry goes to the endpoint as the request was first sent.
    expect(calls[2]?.headers.get('mcp-session-id')).toBe(transport.sessionId);
    expect(calls[2]?.headers.get('x-tenant')).toBe('tenant-secret');
  });

  it('keeps the custom headers and the session id on a redirect within the same origin', async () => {
    const scenario = await servers.scenario(redirectCalls('target', 'stateful'));
    const { client, transport } = await open(scenario.mcp, {
      transport: { headers: { 'X-Tenant': 'tenant-secret' }, standaloneStream: false },
    });
    expect((await client.callTool('echo', { text: 'moved' })).text).toBe('moved');
    const { redirected } = await scenario.stats();
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.headers).toMatchObject({
      'x-tenant': 'tenant-secret',
      'mcp-session-id': transport.sessionId,
    });
  });

  it('keeps the credentials on a redirect within the same origin', async () => {
    // Relative to /faults/<id>/mcp: the redirect target on the fault server's own origin.
    const scenario = await servers.scenario(redirectCalls('target'));
    const { client } = await open(scenario.mcp, {
      transport: { tokenProvider: () => 'raw-secret', authHeader: 'x-api-key', standaloneStream: false },
    });
    expect((await client.callTool('echo', { text: 'moved' })).text).toBe('moved');
    const { redirected } = await scenario.stats();
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.headers.host).toBe(new URL(servers.faults).host);
    expect(redirected[0]?.headers['x-api-key']).toBe('raw-secret');
  });

  it.each([
    ['a data: URL', 'data:text/plain,forged'],
    ['file:', 'file:///etc/passwd'],
    ['no URL', 'http://['],
  ])('does not follow a redirect to %s: the call fails with HttpError', async (_, location) => {
    const scenario = await servers.scenario(redirectCalls(location, 'stateful', 1));
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    await expect(client.callTool('echo', { text: 'moved' })).rejects.toMatchObject({ name: 'HttpError', status: 307 });
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it('follows a 303 with a GET that carries no body (RFC 9110 §15.4.4)', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      // On the endpoint's origin, so the GET keeps the session id.
      rules: [
        { match: { method: 'tools/call', times: 1 }, action: { type: 'redirect', status: 303, location: 'target' } },
      ],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    // The target answers the GET with the session's event stream, which holds no answer.
    await expect(client.callTool('echo', { text: 'moved' }, { timeout: 300 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const { redirected } = await scenario.stats();
    expect(redirected).toHaveLength(1);
    expect(redirected[0]?.httpMethod).toBe('GET');
    expect(redirected[0]?.headers['content-length']).toBeUndefined();
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });
});

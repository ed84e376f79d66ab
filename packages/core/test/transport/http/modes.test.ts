import { describe, expect, it } from 'vitest';
import type { Progress } from '../../../src/index.js';
import { useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();

const elicitation = async () => ({ action: 'accept' as const, content: { name: 'Ada' } });

describe('reference server modes', () => {
  it.each(['/stateful', '/resumable', '/stateless'])(
    'connects, lists and calls on %s, with progress where the answer streams',
    async (path) => {
      const { client, errors } = await open(`${servers.modes}${path}`);
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(await client.listTools()).toHaveLength(11);
      expect((await client.callTool('echo', { text: path })).text).toBe(path);
      const progress: Progress[] = [];
      const slow = await client.callTool(
        'slow',
        { steps: 2, intervalMs: 10 },
        { onProgress: (step) => progress.push(step) },
      );
      expect(slow.text).toBe('done after 2 steps');
      // JSON answers (/stateless) have nowhere to carry progress.
      expect(progress.map((step) => step.progress)).toEqual(path === '/stateless' ? [] : [1, 2]);
      expect(errors).toEqual([]);
    },
  );

  it('answers the server’s elicitation request on the call’s stream (/stateful)', async () => {
    const { client } = await open(`${servers.modes}/stateful`, { client: { elicitation } });
    const result = await client.callTool('elicit');
    expect(JSON.parse(result.text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('works with the v2 SDK server in the legacy era (/v2): connect, list, call', async () => {
    const { client } = await open(`${servers.modes}/v2`, {
      client: { protocolVersion: '2025-11-25', elicitation },
    });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(await client.listTools()).toHaveLength(11);
    expect((await client.callTool('echo', { text: 'v2' })).text).toBe('v2');
    expect(JSON.parse((await client.callTool('elicit')).text)).toMatchObject({ action: 'accept' });
  });
});

describe('legacy HTTP+SSE fallback (2024-11-05)', () => {
  it('falls back after the initialize POST gets 405: GET, endpoint event, then POSTs there', async () => {
    const url = `${servers.modes}/legacy-sse`;
    const { client, transport, calls } = await open(url, { client: { elicitation } });
    expect(transport.usesLegacySse).toBe(true);
    expect(await client.listTools()).toHaveLength(11);
    expect((await client.callTool('echo', { text: 'old' })).text).toBe('old');
    expect(JSON.parse((await client.callTool('elicit')).text)).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });

    const refused = calls.find((call) => call.rpcMethod === 'initialize' && call.url.pathname === '/legacy-sse');
    expect(refused?.status).toBe(405);
    const stream = calls.find((call) => call.httpMethod === 'GET');
    expect(stream?.url.pathname).toBe('/legacy-sse');
    expect(stream?.headers.get('accept')).toBe('text/event-stream');
    const posts = calls.filter((call) => call.url.pathname === '/legacy-sse/messages');
    expect(posts.map((call) => call.rpcMethod)).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']),
    );
    expect(posts.every((call) => call.url.searchParams.has('sessionId') && call.status === 202)).toBe(true);
  });

  it('sends the token on the GET stream and on every POST', async () => {
    const { client, calls } = await open(`${servers.modes}/legacy-sse`, {
      transport: { tokenProvider: () => 'legacy-secret' },
    });
    await client.callTool('echo', { text: 'x' });
    const legacy = calls.filter((call) => call.httpMethod === 'GET' || call.url.pathname === '/legacy-sse/messages');
    expect(legacy.length).toBeGreaterThanOrEqual(4);
    expect(legacy.map((call) => call.headers.get('authorization'))).toEqual(legacy.map(() => 'Bearer legacy-secret'));
  });
});

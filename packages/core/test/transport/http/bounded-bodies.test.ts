import { describe, expect, it } from 'vitest';
import { HttpError, LimitError, TransportError } from '../../../src/index.js';
import { useClients, useHttpServers } from './harness.js';
import type { FaultAction } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

const LIMIT = 1024 * 1024;
/** What the server's few KiB of gzip decode to: sixteen times the limit. */
const DECODED = 16 * LIMIT;

/**
 * A `fetch` that counts the decoded bytes the transport pulls from each body
 * (what it held in memory at most), passing everything through unchanged,
 * headers included.
 */
function pullCounting(): { readonly fetch: typeof fetch; pulled(): number } {
  let pulled = 0;
  const counting = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const { status, statusText, headers } = response;
    return new Response(counted, { status, statusText, headers });
  };
  return { fetch: counting as typeof fetch, pulled: () => pulled };
}

/** A client of a server that answers its first tools/call with `action`, counting what it reads. */
async function compressedOnce(action: FaultAction, inner: 'stateless' | 'stateful' = 'stateless') {
  const scenario = await servers.scenario({ inner, rules: [{ match: { method: 'tools/call', times: 1 }, action }] });
  const counting = pullCounting();
  const connected = await open(scenario.mcp, {
    transport: { fetch: counting.fetch, maxMessageBytes: LIMIT, standaloneStream: false },
  });
  return { ...connected, pulled: counting.pulled, scenario };
}

describe('compressed bodies are bounded by what they decode to', () => {
  // An SSE stream that breaks with no event id to resume from fails its call with
  // a TransportError, caused here by the LimitError of the oversized event.
  it.each([
    ['a JSON result', 'json', LimitError],
    ['an SSE event', 'sse', TransportError],
  ] as const)(
    'fails %s whose gzip is small but decodes past maxMessageBytes, reading about the limit',
    async (_, as, type) => {
      const { client, pulled } = await compressedOnce({ type: 'gzip', bytes: DECODED, as });
      const before = pulled();
      const error = await client.callTool('echo', { text: 'bomb' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toContain('maxMessageBytes');
      // Read until the limit was passed, not the 16 MiB the body decodes to.
      expect(pulled() - before).toBeLessThan(LIMIT + 512 * 1024);
      expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
    },
  );

  it('gives a refusal whose gzip-compressed JSON error decodes to MiBs an HttpError, reading a bounded part', async () => {
    const { client, pulled } = await compressedOnce({ type: 'gzip', bytes: DECODED, as: 'json-error' });
    const before = pulled();
    const error = await client.callTool('echo', { text: 'bomb' }).catch((caught: unknown) => caught);
    // Too large to be the JSON-RPC answer (64 KiB at most): the refusal is an HttpError with an excerpt.
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as Error).message.length).toBeLessThan(8 * 1024);
    expect(pulled() - before).toBeLessThan(512 * 1024);
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });
});

describe('error bodies', () => {
  it('fails a refusal whose JSON body passes 64 KiB with HttpError at once, instead of hanging until the timeout', async () => {
    const body = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'x'.repeat(200 * 1024) } };
    const { client } = await compressedOnce({ type: 'status', status: 400, body });
    const started = performance.now();
    const error = await client.callTool('echo', { text: 'refused' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    // The client's request timeout is 5 s.
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it('gives a refusal whose body stalls its HttpError after a bounded wait, not at the call timeout', async () => {
    const scenario = await servers.scenario({
      inner: 'stateless',
      rules: [{ match: { method: 'tools/call', times: 1 }, action: { type: 'refuse-and-stall', status: 500 } }],
    });
    const { client } = await open(scenario.mcp, {
      transport: { standaloneStream: false },
      client: { requestTimeout: 20_000 },
    });
    const started = performance.now();
    const error = await client.callTool('echo', { text: 'refused' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as HttpError).bodyExcerpt).toBe('{"jsonrpc":"2.0","error":');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });
});

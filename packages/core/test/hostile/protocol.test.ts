import { describe, expect, it } from 'vitest';
import { LimitError, ProtocolError, UnsupportedVersionError } from '../../src/index.js';
import { expectHealthy, rejection, timed } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Protocol: well-formed JSON-RPC that breaks the MCP rules the client relies on.

const server = useHostileServer();
const open = useHostileClients(server);

describe('protocol (legacy era)', () => {
  it('an initialize answer naming protocol version 1999-01-01 fails connect() with UnsupportedVersionError', async () => {
    const { client } = await open('bad-version', { connect: false });
    expect(await rejection(client.connect())).toBeInstanceOf(UnsupportedVersionError);
  });
});

describe('protocol (modern era)', () => {
  it('a result with resultType "bogus" fails the call with ProtocolError (2026-07-28: an unknown resultType is invalid)', async () => {
    const { client } = await open('unknown-result-type', { era: 'modern' });
    const error = await rejection(client.callTool('hostile'));
    expect(error).toBeInstanceOf(ProtocolError);
    await expectHealthy(client);
  });

  it('a result with resultType "task" although the Tasks extension was never declared fails with ProtocolError', async () => {
    const { client } = await open('undeclared-task', { era: 'modern' });
    expect(await rejection(client.callTool('hostile'))).toBeInstanceOf(ProtocolError);
    await expectHealthy(client);
  });

  it('input_required after every retry stops at limits.maxInputRounds (3 here) with LimitError', async () => {
    let asked = 0;
    const { client, endpoint } = await open('input-rounds-forever', {
      era: 'modern',
      client: {
        limits: { maxInputRounds: 3 },
        elicitation: () => {
          asked++;
          return { action: 'decline' };
        },
      },
    });
    const before = endpoint.stats.requests.length;
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRounds', value: 3 });
    expect(ms).toBeLessThan(2000);
    expect(asked).toBeLessThanOrEqual(3);
    expect(endpoint.stats.requests.length - before).toBeLessThanOrEqual(4);
    await expectHealthy(client);
  });

  it("input rounds share the call's maxTotalTimeout (1 s here): handlers taking 300 ms a round end the call at ~1 s with TimeoutError, not after 10 rounds", async () => {
    let asked = 0;
    const { client } = await open('input-rounds-forever', {
      era: 'modern',
      client: {
        limits: { maxInputRounds: 10 },
        elicitation: async () => {
          asked++;
          await sleep(300);
          return { action: 'decline' };
        },
      },
    });
    const { value: error, ms } = await timed(() =>
      rejection(client.callTool('hostile', {}, { maxTotalTimeout: 1000 })),
    );
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as DOMException).message).toBe('tools/call exceeded its total timeout of 1000 ms');
    expect(ms).toBeGreaterThan(900);
    expect(ms).toBeLessThan(1800);
    expect(asked).toBeLessThanOrEqual(4);
    await expectHealthy(client);
  });

  it("input rounds share the client's maxTotalTimeout (1 s here): a server taking 300 ms to answer each round ends the call at ~1 s with TimeoutError", async () => {
    const { client, endpoint } = await open('input-rounds-forever', {
      era: 'modern',
      transport: {
        fetch: async (input, init) => {
          if (new Headers(init?.headers).get('mcp-name') === 'hostile') await sleep(300);
          return fetch(input, init);
        },
      },
      client: { maxTotalTimeout: 1000, limits: { maxInputRounds: 10 }, elicitation: () => ({ action: 'decline' }) },
    });
    const before = endpoint.stats.requests.length;
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as DOMException).message).toBe('tools/call exceeded its total timeout of 1000 ms');
    expect(ms).toBeGreaterThan(900);
    expect(ms).toBeLessThan(1800);
    expect(endpoint.stats.requests.length - before).toBeLessThanOrEqual(4);
    await expectHealthy(client);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

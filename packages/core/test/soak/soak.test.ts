import { StdioTransport } from '@mcp/node-stdio';
import { describe, expect, it } from 'vitest';
import { Client, McpError, StreamableHttpTransport } from '../../src/index.js';
import { problems, runSoak, summary } from './soak.mjs';
import { runStdioSoak, stdioProblems, stdioSummary } from './stdio-soak.mjs';

describe('soak (short run; `pnpm soak` for a long one)', () => {
  it('settles every call once through random faults, runs no tool twice, and leaves nothing behind', async () => {
    const calls = Number(process.env.SOAK_CALLS ?? 1000);
    const report = await runSoak({ Client, StreamableHttpTransport, McpError, calls });
    console.log(summary(report));
    // Requests without a session id included: calls made during a renewal wait for it (session-renewal.test.ts).
    expect(problems(report)).toEqual([]);
    // The run met what it is about: faults of many kinds, resends and session renewals.
    expect(report.calls).toBe(calls);
    expect(Object.keys(report.faults).length).toBeGreaterThanOrEqual(8);
    expect(report.resent).toBeGreaterThan(0);
    // A renewal is an initialize after a 404: at most one per session the server expired.
    expect(report.renewals).toBeGreaterThan(0);
    expect(report.renewals).toBeLessThanOrEqual(report.faults['expire-session'] ?? 0);
    // Most calls get through the faults: a failed renewal no longer leaves a
    // client failing every later call (session-renewal.test.ts).
    expect(report.resolved).toBeGreaterThan(calls / 2);
  }, 120_000);

  it('replaces a client whose connection ended with one new client, closing the old, and counts it apart from renewals', async () => {
    /** A client whose connection ends on its 25th call, as one a server dropped would. */
    class EndingClient extends Client {
      #calls = 0;
      override callTool(...args: Parameters<Client['callTool']>) {
        if (++this.#calls === 25) void this.close();
        return super.callTool(...args);
      }
    }
    const report = await runSoak({
      Client: EndingClient,
      StreamableHttpTransport,
      McpError,
      calls: 400,
      clients: 2,
      faultRate: 0,
    });
    console.log(summary(report));
    // No socket or timer of a replaced client left behind, every call settled.
    expect(problems(report)).toEqual([]);
    // Each client ends after 25 calls: 400 calls need several replacements, one per ending.
    expect(report.reconnects).toBeGreaterThanOrEqual(400 / 25 - 2);
    expect(report.reconnects).toBeLessThanOrEqual(400 / 25);
    expect(report.renewals).toBe(0);
  }, 60_000);
});

describe('stdio soak (short run)', () => {
  it('settles every call when servers crash in a call, are killed, write noise or are closed under calls, and leaves no child behind', async () => {
    const report = await runStdioSoak({ Client, StdioTransport, McpError, rounds: 10 });
    console.log(stdioSummary(report));
    expect(stdioProblems(report)).toEqual([]);
    expect(report.calls).toBe(200);
    expect(Object.keys(report.faults).length).toBeGreaterThanOrEqual(4);
    // Rounds without a fault and with only noise ran, and (stdioProblems) answered every call.
    expect(report.byFault.none?.calls).toBeGreaterThan(0);
    expect(report.byFault.noise?.calls).toBeGreaterThan(0);
  }, 60_000);

  it('reports a call that never settles instead of waiting for it forever', async () => {
    /** A client that loses one call: it never settles, as a lost response would leave it. */
    class LosingClient extends Client {
      override callTool(...args: Parameters<Client['callTool']>) {
        if (args[1]?.text === 'r0c3') return new Promise<never>(() => {});
        return super.callTool(...args);
      }
    }
    const started = Date.now();
    const report = await runStdioSoak({ Client: LosingClient, StdioTransport, McpError, rounds: 2, stuckMs: 300 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.unsettled).toBe(1);
    expect(stdioProblems(report)).toContain('stdio: 1 calls never settled');
  }, 30_000);
});

describe('stdio soak verdicts', () => {
  const clean = {
    rounds: 2,
    calls: 40,
    resolved: 30,
    rejected: { TransportError: 10 },
    untyped: [],
    wrongResults: [],
    unsettled: 0,
    faults: { none: 1, kill: 1 },
    byFault: { none: { calls: 20, answered: 20 }, kill: { calls: 20, answered: 10 } },
    aliveAfter: [],
    abortListenersAfter: 0,
    resources: { ProcessWrap: [0, 0] as [number, number] },
    seconds: 1,
  };

  it('passes a clean report, and requires every call answered in rounds without a fault or with only noise', () => {
    expect(stdioProblems(clean)).toEqual([]);
    expect(
      stdioProblems({
        ...clean,
        unsettled: 2,
        byFault: {
          none: { calls: 20, answered: 19 },
          noise: { calls: 20, answered: 0 },
          kill: { calls: 20, answered: 0 },
        },
      }),
    ).toEqual([
      'stdio: 2 calls never settled',
      'stdio: 1 of 20 calls not answered in rounds with fault none',
      'stdio: 20 of 20 calls not answered in rounds with fault noise',
    ]);
  });
});

describe('soak verdicts', () => {
  const clean = {
    calls: 10,
    resolved: 10,
    rejected: {},
    reasons: {},
    unhandled: [],
    untyped: [],
    unsettled: 0,
    faults: {},
    resent: 0,
    sessionless: {},
    renewals: 0,
    reconnects: 0,
    maxExecutions: 1,
    ranTwice: [],
    resolvedUnrun: [],
    maxAbortListeners: 4,
    inFlight: 16,
    abortListenersAfter: 0,
    openResponsesAfter: 0,
    resources: { Timeout: [2, 1] as [number, number], TCPSocketWrap: [0, 0] as [number, number] },
    heap: { before: 30, after: 45 },
    seconds: 1,
  };

  it('passes a clean report and names each broken invariant', () => {
    expect(problems(clean)).toEqual([]);
    expect(
      problems({
        ...clean,
        unsettled: 1,
        unhandled: ['Error: y'],
        sessionless: { 'tools/call': 2 },
        untyped: ['TypeError: x'],
        ranTwice: ['t3'],
        resolvedUnrun: ['t4'],
        abortListenersAfter: 2,
        maxAbortListeners: 17,
        openResponsesAfter: 1,
        resources: { Timeout: [1, 2], TCPSocketWrap: [0, 1] },
        heap: { before: 30, after: 51 },
      }),
    ).toEqual([
      '1 calls never settled',
      'unhandled rejections: Error: y',
      'untyped rejections: TypeError: x',
      'calls executed twice: t3',
      'calls resolved without exactly one execution: t4',
      'requests without a session id: tools/call 2',
      '2 abort listeners left on the call signal',
      '1 server responses still open after close',
      'Timeout: 1 before, 2 after',
      'TCPSocketWrap: 0 before, 1 after',
      '17 abort listeners on the call signal with at most 16 calls in flight',
      'heap grew 21.0 MB (tolerance 20 MB)',
    ]);
  });
});

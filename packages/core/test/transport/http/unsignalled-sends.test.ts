import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientClosedError } from '../../../src/index.js';
import { until, useClients } from './harness.js';
import { startWatchedFaultServer, type WatchedFaultServer } from './watched-servers.js';

// A send without a per-call signal (a notification, an answer to the server) is
// bounded by the transport's life through a signal linked to the transport's own
// (util/linked-signal.ts). Many at once must not pile listeners on it.

let server: WatchedFaultServer;
beforeAll(async () => {
  server = await startWatchedFaultServer();
});
afterAll(() => server.close());
const open = useClients();

const SENDS = 50;

describe('sends without a signal of their own', () => {
  it(`close() ends ${SENDS} of them the server never answers, each with ClientClosedError, and Node prints no MaxListenersExceededWarning`, async () => {
    const scenario = server.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'notifications/stalled' }, action: { type: 'stall' } }],
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { client, transport } = await open(scenario.mcp, { transport: { standaloneStream: false } });
      const sends = Array.from({ length: SENDS }, () =>
        transport.send({ jsonrpc: '2.0', method: 'notifications/stalled' }).then(
          () => 'sent',
          (error: unknown) => error,
        ),
      );
      await until(() => server.openResponses().filter((response) => response.includes(scenario.id)).length >= SENDS);
      // A call made meanwhile, with its own signal, is not held up by them.
      expect((await client.callTool('echo', { text: 'beside' })).text).toBe('beside');

      const started = performance.now();
      await client.close();
      const outcomes = await Promise.all(sends);
      expect(performance.now() - started).toBeLessThan(2000);
      for (const outcome of outcomes) expect(outcome).toBeInstanceOf(ClientClosedError);
      await until(() => !server.openResponses().some((response) => response.includes(scenario.id)), 1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});

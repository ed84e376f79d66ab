import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { McpError } from '../../src/index.js';
import { expectHealthy } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Leaks: whatever the server did, a settled call leaves nothing behind on
// the caller's long-lived signal, and a closed client leaves no timer.

const server = useHostileServer();
const open = useHostileClients(server);

/** Faults whose call settles quickly, each a different way out of the read path. */
const FAULTS = [
  'malformed-json',
  'unknown-id',
  'wrong-content-type',
  'sse-not-json',
  'oversized-body',
  'endless-sse-line',
  'gzip-bomb',
  'gzip-bomb-error',
  'redirect-loop',
  'stall-mid-sse',
] as const;

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe.each(['legacy', 'modern'] as const)('leaks (%s era)', (era) => {
  it(`${FAULTS.length} faults, each called 5 times with one long-lived signal, leave no abort listener on it`, async () => {
    const controller = new AbortController();
    const { signal } = controller;
    for (const fault of FAULTS) {
      const { client } = await open(fault, { era });
      for (let call = 0; call < 5; call++) {
        await client.callTool('hostile', {}, { signal, timeout: 200 }).then(
          () => expect.fail(`${fault} answered`),
          (error: unknown) => expect(error instanceof McpError || error instanceof DOMException).toBe(true),
        );
      }
      await expectHealthy(client);
      expect(getEventListeners(signal, 'abort'), `abort listeners after ${fault}`).toHaveLength(0);
    }
  });

  it('a client closed after a stalled call and a GET stream leaves no more timers than there were before it', async () => {
    const before = timers();
    const { client } = await open('stall-before-headers', { era, client: { onNotification: () => {} } });
    await client.callTool('hostile', {}, { timeout: 100 }).catch(() => {});
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

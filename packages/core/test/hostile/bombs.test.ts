import { describe, expect, it } from 'vitest';
import { ENDLESS_CAP_BYTES, GZIP_BOMB_DECODED_BYTES } from '../../../../test-servers/hostile/serve.mjs';
import { HttpError } from '../../src/index.js';
import { expectHealthy, MiB, peakGrowthDuring, rejection, timed, until } from './checks.js';
import { expectSizeLimitError, useHostileClients, useHostileServer } from './hostile-harness.js';

// Bombs: bodies small on the wire that decode huge, and bodies that never end.
// Every client here has maxMessageBytes = 1 MiB; a bomb is 64 MiB decoded.

const server = useHostileServer();
const open = useHostileClients(server);

describe.each(['legacy', 'modern'] as const)('bombs (%s era)', (era) => {
  it.each([
    ['gzip-bomb', 'a gzip bomb as a JSON answer'],
    ['gzip-bomb-sse', 'a gzip bomb in one SSE event'],
  ])(
    '%s: %s under a 1 MiB limit fails with a maxMessageBytes LimitError, memory stays bounded, and the next call works',
    async (fault) => {
      const { client } = await open(fault, { era });
      const { value: error, peak } = await peakGrowthDuring(() => rejection(client.callTool('hostile')));
      expectSizeLimitError(error);
      expect(peak).toBeLessThan(GZIP_BOMB_DECODED_BYTES / 4);
      await expectHealthy(client);
    },
  );

  it('a gzip bomb as an HTTP 500 body fails with HttpError whose text is bounded, and the next call works', async () => {
    const { client } = await open('gzip-bomb-error', { era });
    const { value: error, peak } = await peakGrowthDuring(() => rejection(client.callTool('hostile')));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as Error).message.length).toBeLessThan(64 * 1024);
    expect(JSON.stringify(error).length).toBeLessThan(2 * MiB);
    expect(peak).toBeLessThan(GZIP_BOMB_DECODED_BYTES / 4);
    await expectHealthy(client);
  });

  it('an SSE line that never ends fails with a maxMessageBytes LimitError after about 1 MiB read, and the next call works', async () => {
    const { client, endpoint } = await open('endless-sse-line', { era });
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expectSizeLimitError(error);
    expect(ms).toBeLessThan(5000);
    await expectHealthy(client);
    // What the server got out before the client hung up: the limit plus socket buffers, never the cap.
    expect(endpoint.stats.clientGone).toBe(1);
    expect(endpoint.stats.bytesWritten).toBeLessThan(32 * MiB);
    expect(endpoint.stats.bytesWritten).toBeLessThan(ENDLESS_CAP_BYTES);
  });

  it('a JSON body without Content-Length that never ends fails with a maxMessageBytes LimitError, and the next call works', async () => {
    const { client, endpoint } = await open('endless-body', { era });
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expectSizeLimitError(error);
    expect(ms).toBeLessThan(5000);
    await expectHealthy(client);
    expect(endpoint.stats.clientGone).toBe(1);
    expect(endpoint.stats.bytesWritten).toBeLessThan(32 * MiB);
  });

  it('a 4 MiB JSON answer with its Content-Length fails with a maxMessageBytes LimitError under a 1 MiB limit', async () => {
    const { client } = await open('oversized-body', { era });
    expectSizeLimitError(await rejection(client.callTool('hostile')));
    await expectHealthy(client);
  });

  it('a 4 MiB SSE event fails with a maxMessageBytes LimitError under a 1 MiB limit', async () => {
    const { client } = await open('oversized-sse-event', { era });
    expectSizeLimitError(await rejection(client.callTool('hostile')));
    await expectHealthy(client);
  });

  it.each([
    ['endless-error-body', 'an HTTP 500 body that never ends'],
    ['endless-refusal-body', 'an HTTP 400 JSON body that never ends'],
  ])('%s: %s fails with HttpError in < 2 s, its text bounded, and the next call works', async (fault) => {
    const { client, endpoint } = await open(fault, { era });
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message.length).toBeLessThan(64 * 1024);
    expect(ms).toBeLessThan(2000);
    await expectHealthy(client);
    await until(() => endpoint.stats.clientGone === 1, 2000, 'the client leaves the endless body');
    expect(endpoint.stats.bytesWritten).toBeLessThan(32 * MiB);
  });
});

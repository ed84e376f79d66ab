import { describe, expect, it } from 'vitest';
import { CHURN_RESPONSES, ODD_RESPONSES } from '../../../../test-servers/hostile/serve.mjs';
import { NetworkError, ProtocolError } from '../../src/index.js';
import { expectHealthy, rejection } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Frames: answers cut off, mislabelled, or addressed to requests nobody sent.

const server = useHostileServer();
const open = useHostileClients(server);

describe.each(['legacy', 'modern'] as const)('frames (%s era)', (era) => {
  it('a JSON answer cut off mid-object fails with ProtocolError and the next call works', async () => {
    const { client } = await open('malformed-json', { era });
    const error = await rejection(client.callTool('hostile'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/not JSON/);
    await expectHealthy(client);
  });

  it('an answer labelled text/html fails with ProtocolError and the next call works', async () => {
    const { client } = await open('wrong-content-type', { era });
    const error = await rejection(client.callTool('hostile'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/content type/);
    await expectHealthy(client);
  });

  it('a JSON answer to an id the client never sent fails that call with ProtocolError, not a timeout', async () => {
    const { client } = await open('unknown-id', { era });
    const error = await rejection(client.callTool('hostile', {}, { timeout: 5000 }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/does not answer/);
    await expectHealthy(client);
  });

  it(`${CHURN_RESPONSES} responses to unknown ids (__proto__, constructor, 2^53…) are reported and skipped; the call gets its answer`, async () => {
    const { client, errors } = await open('id-churn', { era });
    const result = await client.callTool('hostile');
    expect(result.text).toBe('after churn');
    expect(errors).toHaveLength(CHURN_RESPONSES);
    // 1.5 is no JSON-RPC id at all (ids are strings or integers): an invalid response rather than an unknown one.
    const unexplained = errors.filter(
      (error) =>
        !(error instanceof ProtocolError && /unknown request id|invalid JSON-RPC response/.test(error.message)),
    );
    expect(unexplained).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('content');
    await expectHealthy(client);
  });

  it("an SSE event that is not JSON on the call's stream fails that call with ProtocolError and the next call works", async () => {
    const { client } = await open('sse-not-json', { era });
    const error = await rejection(client.callTool('hostile'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/not JSON/);
    await expectHealthy(client);
  });

  it('256 KiB of response headers fail the call with NetworkError and the next call works', async () => {
    const { client } = await open('huge-headers', { era });
    expect(await rejection(client.callTool('hostile'))).toBeInstanceOf(NetworkError);
    await expectHealthy(client);
  });

  it.each(Object.keys(ODD_RESPONSES))(
    'a response of the wrong shape (%s) fails that call with ProtocolError',
    async (kind) => {
      const { client } = await open('odd-response', { era });
      const error = await rejection(client.callTool('hostile', { kind }));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toMatch(/invalid JSON-RPC response/);
      await expectHealthy(client);
    },
  );
});

import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error test-servers/ is plain JS without declarations
import { serveInProcess } from '../../../../test-servers/in-process.mjs';
import { Connection, type ConnectionEvent } from '../../src/connections/index.js';
import { MemoryTransport } from '../../src/index.js';
import { states, useCleanup } from './servers.js';

interface InProcessServer {
  close(): Promise<void>;
}

const cleanup = useCleanup();

/** A connection whose config makes a fresh in-process reference server for each attempt, as a stdio command would. */
function openInProcess() {
  const started: Promise<InProcessServer>[] = [];
  const events: ConnectionEvent[] = [];
  const connection = new Connection(
    {
      name: 'local',
      transport: () => {
        const [client, server] = MemoryTransport.createPair();
        started.push(serveInProcess(server));
        return client;
      },
    },
    { onEvent: (event) => events.push(event), reconnect: { baseDelayMs: 10, maxDelayMs: 50 } },
  );
  cleanup(() => connection.close());
  return { connection, events, started };
}

describe('Connection over a transport factory', () => {
  it('sees the server end the connection at once, and starts a new server for the next attempt', async () => {
    const { connection, events, started } = openInProcess();
    await connection.connect();
    expect(connection.getSnapshot().tools).toHaveLength(11);
    // The server goes away (a stdio process that exited): no call is needed to notice.
    await (await started[0])?.close();
    await vi.waitFor(() => expect(states(events)).toContain('reconnecting#1'));
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe('ready'));
    expect(started).toHaveLength(2);
    expect(states(events)).toEqual(['connecting#0', 'ready', 'reconnecting#1', 'connecting#1', 'ready']);
    expect((await connection.callTool('echo', { text: 'second' })).content).toEqual([{ type: 'text', text: 'second' }]);
  });

  it('waits in callTool while reconnecting, and the call goes through once ready', async () => {
    const { connection, started } = openInProcess();
    await connection.connect();
    await (await started[0])?.close();
    await vi.waitFor(() => expect(connection.getSnapshot().state.status).not.toBe('ready'));
    const result = await connection.callTool('echo', { text: 'waited' }, { timeout: 5000 });
    expect(result.content).toEqual([{ type: 'text', text: 'waited' }]);
  });

  it("gives up waiting in callTool at the call's signal, and rejects at once when failed or idle", async () => {
    const { connection } = openInProcess();
    await expect(connection.callTool('echo', { text: 'idle' })).rejects.toMatchObject({ code: 'not_ready' });
    const connecting = connection.connect();
    const controller = new AbortController();
    const call = connection.callTool('echo', { text: 'aborted' }, { signal: controller.signal });
    controller.abort(new Error('the user left'));
    await expect(call).rejects.toThrow('the user left');
    await connecting;
    await connection.close();
    await expect(connection.callTool('echo', { text: 'closed' })).rejects.toMatchObject({ code: 'closed' });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { Connection, type ConnectionEvent, type ConnectionOptions } from '../../src/connections/index.js';
import { useCleanup, useHttpServers } from './servers.js';

const servers = useHttpServers();

const cleanup = useCleanup();

function open(path: string, options: ConnectionOptions = {}) {
  const events: ConnectionEvent[] = [];
  const connection = new Connection(
    { name: 'asks', url: `${servers().modes}${path}` },
    { ...options, onEvent: (event) => events.push(event) },
  );
  cleanup(() => connection.close());
  return { connection, events };
}

describe.each([
  ['legacy', '/stateful'],
  ['modern', '/v2'],
])('Connection server requests (%s)', (_era, path) => {
  it('puts an elicitation in snapshot.pending until the UI answers it', async () => {
    const { connection, events } = open(path);
    await connection.connect();
    const call = connection.callTool('elicit', { message: 'Your name?' });
    await vi.waitFor(() => expect(connection.getSnapshot().pending).toHaveLength(1));
    const [item] = connection.getSnapshot().pending;
    expect(item).toMatchObject({ kind: 'elicitation', params: { message: 'Your name?' } });
    if (item?.kind !== 'elicitation') throw new Error('expected an elicitation');
    expect(item.respond({ name: 'Ada' })).toBe(true);
    const result = await call;
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ action: 'accept', content: { name: 'Ada' } }) },
    ]);
    await vi.waitFor(() => expect(connection.getSnapshot().pending).toEqual([]));
    expect(
      events.filter((event) => event.type === 'pending').map((event) => event.type === 'pending' && event.outcome),
    ).toEqual(['added', 'answered']);
  });
});

describe('Connection server requests', () => {
  it("uses the app's own handler instead of the queue when it gives one", async () => {
    const { connection } = open('/stateful', {
      client: { elicitation: () => ({ action: 'accept', content: { name: 'from the handler' } }) },
    });
    await connection.connect();
    const result = await connection.callTool('elicit', {});
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ action: 'accept', content: { name: 'from the handler' } }) },
    ]);
    expect(connection.getSnapshot().pending).toEqual([]);
  });

  it('withdraws what waits when the connection closes', async () => {
    const { connection } = open('/stateful');
    await connection.connect();
    const call = connection.callTool('elicit', {});
    call.catch(() => {});
    await vi.waitFor(() => expect(connection.getSnapshot().pending).toHaveLength(1));
    const [item] = connection.getSnapshot().pending;
    await connection.close();
    expect(item?.signal.aborted).toBe(true);
    expect(connection.getSnapshot().pending).toEqual([]);
  });

  it('queues nothing with pending: false: the client declines for the app', async () => {
    const { connection } = open('/stateful', { pending: false });
    await connection.connect();
    const result = await connection.callTool('elicit', {});
    // The client, with no handler, declines for the app; nothing reached the snapshot.
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ action: 'decline' }) }]);
    expect(connection.getSnapshot().pending).toEqual([]);
  });
});

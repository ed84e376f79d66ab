import { describe, expect, it, vi } from 'vitest';
import { Connection, type ConnectionEvent, type ConnectionOptions } from '../../src/connections/index.js';
import { faultScenario, startRecordingProxy, useCleanup, useHttpServers } from './servers.js';

const servers = useHttpServers();

const cleanup = useCleanup();

function open(url: string, options: ConnectionOptions = {}) {
  const events: ConnectionEvent[] = [];
  const connection = new Connection({ name: 'lists', url }, { ...options, onEvent: (event) => events.push(event) });
  cleanup(() => connection.close());
  return { connection, events };
}

/**
 * Adds tools with the server's `add-tool` until the connection's list has the
 * new one. A notification sent before the server's stream for this client
 * was open reaches nobody, so the first `add-tool` may go unheard; each call adds
 * one tool, and the list must end up equal to what the server lists.
 */
async function addToolUntilHeard(connection: Connection): Promise<void> {
  const before = connection.getSnapshot().tools.length;
  await vi.waitFor(
    async () => {
      if (connection.getSnapshot().tools.length === before) await connection.callTool('add-tool');
      expect(connection.getSnapshot().tools.length).toBeGreaterThan(before);
    },
    { timeout: 10_000, interval: 200 },
  );
}

describe.each([
  ['legacy', '/stateful'],
  ['modern', '/v2?hub=lists'],
])('Connection lists (%s)', (era, path) => {
  it('keeps the tool list current when the server adds a tool (tools/list_changed)', async () => {
    const { connection, events } = open(`${servers().modes}${path}`);
    await connection.connect();
    expect(connection.getSnapshot().era).toBe(era);
    const ready = connection.getSnapshot();
    await addToolUntilHeard(connection);
    const snapshot = connection.getSnapshot();
    expect(snapshot).not.toBe(ready);
    expect(snapshot.tools.at(-1)?.name).toMatch(/^dynamic-\d+$/);
    expect(snapshot.tools.map((tool) => tool.name)).toEqual((await connection.client.listTools()).map((t) => t.name));
    expect(events).toContainEqual({ type: 'lists', list: 'tools' });
    expect(snapshot.state.status).toBe('ready');
  });

  it('keeps prompts and resources when asked', async () => {
    const { connection } = open(`${servers().modes}${path}`, { lists: { prompts: true, resources: true } });
    await connection.connect();
    const snapshot = connection.getSnapshot();
    expect(snapshot.prompts?.length).toBeGreaterThan(0);
    expect(snapshot.resources?.length).toBeGreaterThan(0);
  });
});

describe('Connection lists', () => {
  it('leaves out lists not asked for, and lists the server does not declare', async () => {
    const { connection } = open(`${servers().modes}/stateful?profile=minimal`, { lists: { prompts: true } });
    await connection.connect();
    const snapshot = connection.getSnapshot();
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(snapshot.prompts).toEqual([]);
    expect(snapshot.resources).toBeUndefined();
    expect(snapshot.listError).toBeUndefined();
  });

  it('stays ready when listing fails, with the failure in the snapshot and the log', async () => {
    const broken = await faultScenario(servers().faults, {
      rules: [{ match: { method: 'tools/list' }, action: { type: 'malformed', kind: 'not-jsonrpc' } }],
    });
    const { connection, events } = open(broken.mcp);
    await connection.connect();
    const snapshot = connection.getSnapshot();
    expect(snapshot.state.status).toBe('ready');
    expect(snapshot.tools).toEqual([]);
    expect(snapshot.listError).toMatchObject({ list: 'tools', error: expect.any(Error) });
    expect(events).toContainEqual(expect.objectContaining({ type: 'lists', list: 'tools', error: expect.any(Error) }));
    expect((await connection.callTool('echo', { text: 'still' })).content).toEqual([{ type: 'text', text: 'still' }]);
  });
});

describe.each([
  ['legacy', '/stateful'],
  ['modern', '/v2?hub=once'],
])('Connection lists per connect (%s)', (era, path) => {
  it('lists the tools once per connect, counted at the server', async () => {
    // One page per listing, so each tools/list the server sees is one listing.
    const proxy = await startRecordingProxy(`${servers().modes}${path}${path.includes('?') ? '&' : '?'}pageSize=100`);
    cleanup(() => proxy.close());
    const { connection } = open(proxy.url);
    await connection.connect();
    expect(connection.getSnapshot().era).toBe(era);
    // Long enough for a listing after the acknowledgement or a change notification to have gone out.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(proxy.count('tools/list')).toBe(1);
    expect(connection.getSnapshot().tools.length).toBeGreaterThan(5);
  });

  it('reads the pages of that one listing: the default page size of 5 makes several requests', async () => {
    const proxy = await startRecordingProxy(`${servers().modes}${path}`);
    cleanup(() => proxy.close());
    const { connection } = open(proxy.url);
    await connection.connect();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(proxy.count('tools/list')).toBe(Math.ceil(connection.getSnapshot().tools.length / 5));
  });
});

describe('Connection lists (modern, a late acknowledgement)', () => {
  it('hears a tool added before the server acknowledged the listen stream: the lists are read again, past the cache', async () => {
    const proxy = await startRecordingProxy(`${servers().modes}/v2?hub=late-ack&pageSize=100`);
    cleanup(() => proxy.close());
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The listen request reaches the server only when the test lets it, past the connection's wait for its acknowledgement (ACKNOWLEDGEMENT_WAIT).
    const slowListen: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"subscriptions/listen"')) await held;
      return fetch(input, init);
    };
    const { connection, events } = open(proxy.url, { http: { fetch: slowListen } });
    await connection.connect();
    const before = connection.getSnapshot().tools.map((tool) => tool.name);
    expect(proxy.count('tools/list')).toBe(1);

    // Another client adds a tool while this one's stream is not listening yet: its notification reaches nobody here.
    const { connection: other } = open(`${servers().modes}/v2?hub=late-ack&pageSize=100`, { pending: false });
    await other.connect();
    await other.callTool('add-tool');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connection.getSnapshot().tools.map((tool) => tool.name)).toEqual(before);

    release();
    await vi.waitFor(() => expect(connection.getSnapshot().tools.length).toBe(before.length + 1), { timeout: 5000 });
    expect(connection.getSnapshot().tools.at(-1)?.name).toMatch(/^dynamic-\d+$/);
    expect(proxy.count('tools/list')).toBe(2);
    expect(events.filter((event) => event.type === 'lists')).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { type Client, ErrorCode, ProtocolError, RpcError } from '../../../src/index.js';
import { discover, metaOf } from '../../spec/modern-scripted.js';
import { ALL_CAPABILITIES, scripted, useScriptedClients } from '../harness.js';

// Tasks rows of docs/spec-coverage.md that need a case no real task server produces: the client's wire messages
// read one by one off the scripted server (9.4-06), and a server answering out of turn (9.4-10, 9.4-14).

useScriptedClients();

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A 2025-11-25 `Task` as a server reports it. */
const legacyTask = (taskId: string, status: string) => ({
  taskId,
  status,
  createdAt: '2025-11-25T00:00:00Z',
  lastUpdatedAt: '2025-11-25T00:00:00Z',
  ttl: 60_000,
  pollInterval: 10,
});

/** A 2026-07-28 `resultType: "task"` answer (SEP-2663). */
const modernTask = {
  resultType: 'task',
  taskId: 't-1',
  status: 'working',
  createdAt: '2026-07-28T00:00:00Z',
  lastUpdatedAt: '2026-07-28T00:00:00Z',
  ttlMs: 60_000,
};

describe('9.4-06: 2025-11-25 task requests carry no related-task _meta', () => {
  it('sends tasks/get, tasks/result and tasks/cancel without io.modelcontextprotocol/related-task in _meta', async () => {
    const { client, server } = scripted({ protocolVersion: '2025-11-25' });
    await Promise.all([
      client.connect(),
      server.handshake({
        capabilities: { ...ALL_CAPABILITIES, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
      }),
    ]);

    // callTool follows the task: tools/call {task}, then tasks/get until it ends, then tasks/result.
    const call = client.callTool('slow', {});
    const list = await server.expect('tools/list');
    await server.reply(list.id, {
      tools: [{ name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }],
    });
    const start = await server.expect('tools/call');
    expect(start.params?.task).toBeDefined();
    await server.reply(start.id, { task: legacyTask('t-1', 'working') });
    const get = await server.expect('tasks/get');
    await server.reply(get.id, legacyTask('t-1', 'completed'));
    const result = await server.expect('tasks/result');
    await server.reply(result.id, {
      content: [{ type: 'text', text: 'done' }],
      _meta: { [RELATED_TASK]: { taskId: 't-1' } },
    });
    expect((await call).text).toBe('done');

    const cancelled = client.tasks.cancel('t-2');
    const cancel = await server.expect('tasks/cancel');
    await server.reply(cancel.id, legacyTask('t-2', 'cancelled'));
    await cancelled;

    for (const request of [get, result, cancel]) {
      expect(request.params).toMatchObject({ taskId: expect.any(String) });
      expect(metaOf(request), request.method).not.toHaveProperty([RELATED_TASK]);
    }
  });
});

/** A client connected to a scripted 2026-07-28 server. */
async function modern() {
  const pair = scripted();
  await Promise.all([pair.client.connect(), discover(pair.server)]);
  return pair;
}

/** Requests other than tools/call, each with the client call that sends it. */
const notToolsCall = [
  ['tools/list', (client: Client) => client.listTools()],
  ['prompts/get', (client: Client) => client.getPrompt('p')],
  ['resources/read', (client: Client) => client.readResource('file:///a')],
] as const;

describe('9.4-10: a 2026-07-28 task answer is taken only for tools/call', () => {
  it.each(notToolsCall)(
    'refuses resultType "task" answering %s with a ProtocolError, and follows no task',
    async (method, run) => {
      const { client, server } = await modern();
      const outcome = run(client).catch((error: unknown) => error);
      const request = await server.expect(method);
      await server.reply(request.id, modernTask);
      const error = await outcome;
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toContain('resultType "task"');
      await server.assertNoMessage(50);
    },
  );
});

describe('9.4-14: a -32021 naming the Tasks extension', () => {
  it('rejects the call with the RpcError (MissingRequiredClientCapability) and sends nothing more, though every request declared the extension', async () => {
    const { client, server } = await modern();
    const outcome = client.callTool('slow', {}).catch((error: unknown) => error);
    const request = await server.expect('tools/call');
    const declared = metaOf(request)['io.modelcontextprotocol/clientCapabilities'] as { extensions?: object };
    expect(declared.extensions).toHaveProperty([TASKS_EXTENSION]);
    await server.replyError(
      request.id,
      ErrorCode.MissingRequiredClientCapability,
      'Missing required client capability',
      {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      },
    );
    const error = await outcome;
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: ErrorCode.MissingRequiredClientCapability, method: 'tools/call' });
    await server.assertNoMessage(100);
  });
});

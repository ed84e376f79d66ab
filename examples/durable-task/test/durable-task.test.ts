import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';

interface TaskAnswer {
  taskId?: string;
  status?: string;
  statusMessage?: string;
  text?: string;
  isError?: boolean;
  error?: string;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bundle = `${repoRoot}packages/core/dist/core.bundle.js`;

let servers: Awaited<ReturnType<typeof startHttpServers>>;
let persistRoot: string;
const workers: Miniflare[] = [];
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('build @mcp/core first: pnpm -r build');
  servers = await startHttpServers();
  persistRoot = mkdtempSync(join(tmpdir(), 'durable-task-'));
});
afterAll(async () => {
  await Promise.all(workers.map((mf) => mf.dispose()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await servers?.close();
  if (persistRoot) rmSync(persistRoot, { recursive: true, force: true });
});

/** The 2026-07-28 task server, with a task store of its own for this test. */
const taskServer = () => `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;

/** A recording proxy in front of `target` (the JSON-RPC method of every message), closed after the file's tests. */
async function recording(target: string): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(target);
  proxies.push(proxy);
  return proxy;
}

/**
 * The example worker in workerd, talking to `mcpUrl`; each method is one invocation.
 * With `persist`, the Durable Objects' storage is kept on disk there, for a later Miniflare to find.
 */
function startWorker(mcpUrl: string, persist?: string) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: `${repoRoot}examples/durable-task/worker.js`,
    modulesRoot: repoRoot,
    // Miniflare's default rules read *.js as CommonJS; these are ES modules.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
    compatibilityDate: '2025-09-01',
    bindings: { MCP_URL: mcpUrl },
    durableObjects: { MCP_TASKS: 'McpTaskObject' },
    ...(persist && { durableObjectsPersist: persist }),
  });
  workers.push(mf);
  const send = async (path: string, init?: RequestInit) => {
    const response = await mf.dispatchFetch(`http://worker.test${path}`, init as never);
    return { status: response.status, answer: (await response.json()) as TaskAnswer };
  };
  const ok = async (path: string, init?: RequestInit) => {
    const { status, answer } = await send(path, init);
    expect(answer.error).toBeUndefined();
    expect(status).toBeLessThan(300);
    return answer;
  };
  return {
    send,
    start: (job: string, tool: string, args: Record<string, unknown>) =>
      ok(`/start?job=${job}`, { method: 'POST', body: JSON.stringify({ tool, arguments: args }) }),
    collect: (job: string) => ok(`/collect?job=${job}`),
    cancel: (job: string) => ok(`/cancel?job=${job}`, { method: 'POST' }),
    dispose: async () => {
      workers.splice(workers.indexOf(mf), 1);
      await mf.dispose();
    },
  };
}

describe('a Worker keeping an MCP task in a Durable Object', () => {
  it('starts a task in one invocation and collects its result in later ones, on one resumed session', async () => {
    const server = await recording(taskServer());
    const worker = startWorker(server.url);

    const started = await worker.start('report', 'slow-steps', { steps: 3, stepMs: 200 });
    expect(started.taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(started.status).toBe('working');

    // A later invocation finds the stored task and asks the server about it.
    const later = await worker.collect('report');
    expect(later.taskId).toBe(started.taskId);
    expect(['working', 'completed']).toContain(later.status);

    await expect
      .poll(() => worker.collect('report'), { timeout: 10_000, interval: 100 })
      .toMatchObject({
        taskId: started.taskId,
        status: 'completed',
        text: 'done after 3 steps',
        isError: false,
      });

    // The era probe on the first invocation only: the later ones resume the stored session.
    expect(server.methods.filter((method) => method === 'server/discover')).toHaveLength(1);
    expect(server.methods.slice(0, 2)).toEqual(['server/discover', 'tools/call']);
    // 2026-07-28 has no tasks/result: tasks/get carries the result once the task has completed.
    expect(server.methods.slice(2)).toEqual(server.methods.slice(2).map(() => 'tasks/get'));
  });

  it('collects, from a new workerd process, the task an earlier one started', async () => {
    const mcp = taskServer();
    const persist = join(persistRoot, 'restart');
    const first = startWorker(mcp, persist);
    const started = await first.start('report', 'slow-steps', { steps: 2, stepMs: 100 });
    expect(started.taskId).toMatch(/^[0-9a-f]{32}$/);
    await first.dispose();

    // Nothing of the first process is left but the Durable Object's storage on disk.
    const second = startWorker(mcp, persist);
    expect((await second.collect('report')).taskId).toBe(started.taskId);
    await expect
      .poll(() => second.collect('report'), { timeout: 10_000, interval: 100 })
      .toMatchObject({
        taskId: started.taskId,
        status: 'completed',
        text: 'done after 2 steps',
      });
  });

  it('cancels the stored task from a later invocation', async () => {
    const worker = startWorker(taskServer());
    const started = await worker.start('long', 'cancellable', { maxMs: 20_000 });
    expect(started.status).toBe('working');

    expect(await worker.cancel('long')).toMatchObject({ taskId: started.taskId, status: 'cancelled' });
    expect(await worker.collect('long')).toMatchObject({ taskId: started.taskId, status: 'cancelled' });
  });

  it('keeps one task per job: another job has none to collect', async () => {
    const worker = startWorker(taskServer());
    await worker.start('one', 'slow-steps', { steps: 1, stepMs: 0 });
    expect(await worker.send('/collect?job=other')).toEqual({ status: 404, answer: { error: 'no task started' } });
  });
});

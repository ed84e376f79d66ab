// A Cloudflare Worker that starts long MCP tool calls as tasks and collects
// their results in later invocations. Each job is a Durable Object holding the
// task's reference and the MCP session snapshot, so no invocation waits for
// the work, and none needs the process that started it.
//
//   POST /start?job=j   body {"tool": "slow-steps", "arguments": {"steps": 3}}   → {taskId, status}
//   GET  /collect?job=j   → {taskId, status, statusMessage?} while working; plus {text, isError} once completed
//   POST /cancel?job=j    → {taskId, status}
//
// The server's URL is the MCP_URL variable; the objects' binding is MCP_TASKS.
import { Client, StreamableHttpTransport } from '../../packages/core/dist/core.bundle.js';

const CLIENT_INFO = { name: 'durable-task-example', version: '1.0.0' };

/**
 * Runs `work` with a client on the MCP session stored in `storage`, and writes
 * the session back when it changed (the first connect, or a renewed session).
 *
 * @template T
 * @param {string} url the server's Streamable HTTP endpoint
 * @param {DurableObjectStorage} storage
 * @param {(client: Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withClient(url, storage, work) {
  /** @type {import('../../packages/core/dist/index.js').SessionSnapshot | undefined} */
  const stored = await storage.get('mcp-session');
  const transport = new StreamableHttpTransport(url, {
    // Nobody would read a standalone GET stream once this invocation returns.
    standaloneStream: false,
    // The session outlives this client: no DELETE on close.
    endSessionOnClose: false,
  });
  const client = new Client(transport, { clientInfo: CLIENT_INFO, ...(stored && { resume: stored }) });
  try {
    await client.connect();
    return await work(client);
  } finally {
    const snapshot = client.session;
    if (snapshot && JSON.stringify(snapshot) !== JSON.stringify(stored)) await storage.put('mcp-session', snapshot);
    await client.close();
  }
}

/**
 * One long job: at most one task at a time, whose reference (a plain
 * `TaskReference`) lives in the object's storage between invocations.
 */
export class McpTaskObject {
  /** @param {DurableObjectState} ctx @param {{ MCP_URL: string }} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }

  /** @param {Request} request */
  async fetch(request) {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === '/start' && request.method === 'POST') return await this.start(await request.json());
      if (pathname === '/collect') return await this.collect();
      if (pathname === '/cancel' && request.method === 'POST') return await this.cancel();
      return new Response('not found', { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 502 });
    }
  }

  /**
   * Starts the tool as a task and stores its reference; answers at once with
   * the task id, while the server works on.
   * @param {{ tool?: string, arguments?: Record<string, unknown> }} body
   */
  async start({ tool, arguments: args = {} }) {
    if (!tool) return Response.json({ error: 'missing "tool"' }, { status: 400 });
    return withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
      const started = await client.tasks.start(tool, args);
      // A server may run a tool inline and answer with its result: nothing to collect later.
      if (!('taskId' in started)) return Response.json({ text: started.text, isError: started.isError });
      await this.ctx.storage.put('task', started);
      return Response.json({ taskId: started.taskId, status: started.status }, { status: 202 });
    });
  }

  /** Asks the server how the stored task is doing, and takes its result once it has completed. */
  async collect() {
    /** @type {import('../../packages/core/dist/index.js').TaskReference | undefined} */
    const stored = await this.ctx.storage.get('task');
    if (!stored) return Response.json({ error: 'no task started' }, { status: 404 });
    return withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
      const task = await client.tasks.get(stored.taskId);
      await this.ctx.storage.put('task', task);
      const state = { taskId: task.taskId, status: task.status, statusMessage: task.statusMessage };
      if (task.status !== 'completed') return Response.json(state);
      // Completed: result() returns at once, with the tool's result as callTool would give it.
      const result = await client.tasks.result(task.taskId);
      return Response.json({ ...state, text: result.text, isError: result.isError });
    });
  }

  /** Asks the server to cancel the stored task, and reports where it stands after. */
  async cancel() {
    /** @type {import('../../packages/core/dist/index.js').TaskReference | undefined} */
    const stored = await this.ctx.storage.get('task');
    if (!stored) return Response.json({ error: 'no task started' }, { status: 404 });
    return withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
      await client.tasks.cancel(stored.taskId);
      const task = await client.tasks.get(stored.taskId);
      await this.ctx.storage.put('task', task);
      return Response.json({ taskId: task.taskId, status: task.status, statusMessage: task.statusMessage });
    });
  }
}

export default {
  /** @param {Request} request @param {{ MCP_TASKS: DurableObjectNamespace }} env */
  fetch(request, env) {
    const job = new URL(request.url).searchParams.get('job');
    if (!job) return Response.json({ error: 'missing ?job=' }, { status: 400 });
    // One object per job: its requests run in one place, whichever invocation sends them.
    return env.MCP_TASKS.get(env.MCP_TASKS.idFromName(job)).fetch(request);
  },
};

// The Durable Object of one caller: it holds that caller's jobs (each a task
// reference, under the job's name) and the MCP session they share. The Worker
// sends here only requests of this object's caller, so a job name means
// something only within its owner's object.
import { Client, RpcError, StreamableHttpTransport } from '@mcp/core';

/**
 * Jobs one caller may hold at once, ended ones included until `/forget`; a start past it is answered `429`.
 * It bounds the tasks a caller keeps on the server and the objects' storage. The `MAX_JOBS` variable changes it.
 */
export const MAX_JOBS = 10;

/**
 * Requests one caller's object holds at once, the running one included; one more is answered `429` at once,
 * so a caller cannot pile up work (and memory) behind a slow server. The `MAX_QUEUE` variable changes it.
 */
export const MAX_QUEUE = 4;

const CLIENT_INFO = { name: 'durable-task-example', version: '1.0.0' };

/** Statuses after which a task does no more work. */
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** @param {string} job */
const jobKey = (job) => `job:${job}`;

/**
 * A bound taken from a variable: `value` when it is a positive integer, else `fallback` (the documented default).
 * @param {string | undefined} value
 * @param {number} fallback
 */
function limit(value, fallback) {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

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
  /** @type {import('@mcp/core').SessionSnapshot | undefined} */
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
 * One caller's jobs: at most one task per job, whose reference (a plain
 * `TaskReference`) lives in the object's storage between invocations; at most
 * `MAX_JOBS` jobs, and `MAX_QUEUE` requests held, run one at a time.
 */
export class McpTaskObject {
  #queue = Promise.resolve();
  /** Requests taken and not yet answered, the running one included. */
  #held = 0;

  /** @param {DurableObjectState} ctx @param {{ MCP_URL: string, MAX_JOBS?: string, MAX_QUEUE?: string }} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.maxJobs = limit(env.MAX_JOBS, MAX_JOBS);
    this.maxQueue = limit(env.MAX_QUEUE, MAX_QUEUE);
  }

  /**
   * One request at a time, so two never count jobs or use the session at once.
   * @param {Request} request
   */
  fetch(request) {
    if (this.#held >= this.maxQueue) {
      return tooMany(`${this.maxQueue} requests of this caller are already running or waiting`);
    }
    this.#held++;
    const run = this.#queue.then(() => this.#route(request)).finally(() => this.#held--);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** @param {Request} request */
  async #route(request) {
    const url = new URL(request.url);
    // The Worker checked the job's name before sending the request here.
    const job = url.searchParams.get('job') ?? '';
    const post = request.method === 'POST';
    try {
      if (url.pathname === '/start' && post) return await this.start(job, await request.json());
      if (url.pathname === '/collect') return await this.collect(job);
      if (url.pathname === '/cancel' && post) return await this.cancel(job);
      if (url.pathname === '/forget' && post) return await this.forget(job);
      return Response.json({ error: 'not found' }, { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 502 });
    }
  }

  /**
   * Starts the tool as a task and stores its reference; answers at once with
   * the task id, while the server works on. A job that exists is not started
   * again: its task would run on with nobody holding its id.
   * @param {string} job
   * @param {{ tool?: string, arguments?: Record<string, unknown> }} body
   */
  async start(job, { tool, arguments: args = {} }) {
    if (!tool) return Response.json({ error: 'missing "tool"' }, { status: 400 });
    const storage = this.ctx.storage;
    if (await storage.get(jobKey(job))) {
      return Response.json({ error: `job ${job} exists: forget it first` }, { status: 409 });
    }
    const jobs = await storage.list({ prefix: 'job:' });
    if (jobs.size >= this.maxJobs) {
      return tooMany(`${this.maxJobs} jobs are held: forget one first (POST /forget?job=…)`);
    }
    return withClient(this.env.MCP_URL, storage, async (client) => {
      const started = await client.tasks.start(tool, args);
      // A server may run a tool inline and answer with its result: nothing to collect later.
      if (!('taskId' in started)) return Response.json({ text: started.text, isError: started.isError });
      await storage.put(jobKey(job), started);
      return Response.json({ taskId: started.taskId, status: started.status }, { status: 202 });
    });
  }

  /**
   * Asks the server how the job's task is doing, and takes its result once it has completed.
   * @param {string} job
   */
  async collect(job) {
    /** @type {import('@mcp/core').TaskReference | undefined} */
    const stored = await this.ctx.storage.get(jobKey(job));
    if (!stored) return noJob();
    return withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
      const task = await client.tasks.get(stored.taskId);
      await this.ctx.storage.put(jobKey(job), task);
      const state = { taskId: task.taskId, status: task.status, statusMessage: task.statusMessage };
      if (task.status !== 'completed') return Response.json(state);
      // Completed: result() returns at once, with the tool's result as callTool would give it.
      const result = await client.tasks.result(task.taskId);
      return Response.json({ ...state, text: result.text, isError: result.isError });
    });
  }

  /**
   * Asks the server to cancel the job's task, and reports where it stands after.
   * @param {string} job
   */
  async cancel(job) {
    /** @type {import('@mcp/core').TaskReference | undefined} */
    const stored = await this.ctx.storage.get(jobKey(job));
    if (!stored) return noJob();
    return withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
      await client.tasks.cancel(stored.taskId);
      const task = await client.tasks.get(stored.taskId);
      await this.ctx.storage.put(jobKey(job), task);
      return Response.json({ taskId: task.taskId, status: task.status, statusMessage: task.statusMessage });
    });
  }

  /**
   * Deletes the job, freeing its place under `MAX_JOBS`; a task that had not ended is cancelled first, so
   * forgetting and starting again never leaves work running that nobody can reach.
   * @param {string} job
   */
  async forget(job) {
    /** @type {import('@mcp/core').TaskReference | undefined} */
    const stored = await this.ctx.storage.get(jobKey(job));
    if (!stored) return noJob();
    if (!ENDED.has(stored.status)) {
      await withClient(this.env.MCP_URL, this.ctx.storage, async (client) => {
        try {
          await client.tasks.cancel(stored.taskId);
        } catch (error) {
          // The server answered: the task has ended, or its TTL passed. Anything else (the network) keeps the job.
          if (!(error instanceof RpcError)) throw error;
        }
      });
    }
    await this.ctx.storage.delete(jobKey(job));
    return Response.json({ forgotten: job });
  }
}

const noJob = () => Response.json({ error: 'no task started' }, { status: 404 });

/** @param {string} error */
const tooMany = (error) => Response.json({ error }, { status: 429, headers: { 'retry-after': '1' } });

// The Durable Object that keeps one MCP session and runs its requests one at a time.
import { callTool } from './call-tool.js';
import { durableSnapshotStore } from './mcp-session.js';

/**
 * Requests one object holds at once, the running one included; one more is answered `429` at once, so a
 * caller cannot pile up work (and memory) behind a slow call. The `MAX_QUEUE` variable changes it.
 */
export const MAX_QUEUE = 4;

/**
 * One MCP session per object. Requests are run one at a time, so even
 * concurrent first requests share a single handshake (with KV, two invocations
 * that both find no snapshot would each open a session); at most `MAX_QUEUE` wait.
 */
export class McpSessionObject {
  #queue = Promise.resolve();
  #held = 0;

  /** @param {DurableObjectState} ctx @param {{ MCP_URL: string, MAX_QUEUE?: string }} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    const limit = Number(env.MAX_QUEUE);
    this.maxQueue = Number.isInteger(limit) && limit > 0 ? limit : MAX_QUEUE;
  }

  /** @param {Request} request */
  fetch(request) {
    if (this.#held >= this.maxQueue) {
      const error = `${this.maxQueue} requests are already running or waiting`;
      return Response.json({ error }, { status: 429, headers: { 'retry-after': '1' } });
    }
    this.#held++;
    const run = this.#queue
      .then(() => callTool(request, this.env.MCP_URL, durableSnapshotStore(this.ctx.storage)))
      .finally(() => this.#held--);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

import type { TaskReference } from '../../protocol/tasks.js';
import type { ToolResult } from '../../protocol/tools.js';
import type { CallOptions, CallToolOptions } from '../options.js';

/** Options of `client.tasks.start()`: a call's options, and how long the server should keep the task. */
export interface TaskStartOptions extends CallOptions {
  /** The TTL to ask for, in ms (2025-11-25 `task.ttl`); the reference says what the server chose. */
  readonly ttl?: number;
}

/**
 * The tasks a server runs for this client (2025-11-25 core tasks, and the
 * 2026-07-28 extension `io.modelcontextprotocol/tasks`), for work that
 * outlives a call or a process. `callTool` needs none of it: it follows a
 * task to its result itself.
 */
export interface Tasks {
  /**
   * Calls a tool as a task and returns its reference once the server created
   * it. A server may answer without a task (a tool it runs inline): that
   * result then, whole.
   */
  start(name: string, args?: Record<string, unknown>, options?: TaskStartOptions): Promise<TaskReference | ToolResult>;
  /** The task's current state (`tasks/get`). */
  get(taskId: string, options?: CallOptions): Promise<TaskReference>;
  /**
   * Waits for the task to end, polling at the server's interval and answering
   * its input requests with the client's handlers, and returns the tool's
   * result as `callTool` would have. A task that failed rejects with the
   * `RpcError` the server gave (a tool's own failure is a result with
   * `isError`), a cancelled one with an `McpError`. Its bounds are the call's:
   * each poll has the timeout, the whole wait the hard cap. Giving up on the
   * wait leaves the task running: `cancel()` stops it. `onTaskStatus` hears
   * each new status, as in `callTool`.
   */
  result(taskId: string, options?: CallOptions & Pick<CallToolOptions, 'onTaskStatus'>): Promise<ToolResult>;
  /** Asks the server to cancel the task (`tasks/cancel`). */
  cancel(taskId: string, options?: CallOptions): Promise<void>;
  /**
   * Every task the server lists (2025-11-25 `tasks/list`, followed to the last
   * page under `limits.maxPages`). A `CapabilityError` when the server did not
   * declare `tasks.list`, an `McpError` in 2026-07-28, which has no list.
   */
  list(options?: CallOptions): Promise<TaskReference[]>;
}

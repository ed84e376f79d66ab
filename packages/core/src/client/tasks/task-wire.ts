import type { TaskReference } from '../../protocol/tasks.js';
import type { Tool, ToolResult } from '../../protocol/tools.js';
import type { CallOptions, EraKind } from '../options.js';
import type { SessionRequests } from '../session-requests.js';

/** One answer to a poll: the task, and what its status carries in 2026-07-28 (input requests, the outcome). */
export interface Polled {
  readonly task: TaskReference;
  /** 2026-07-28: every input request still outstanding (`input_required`). */
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>;
  /** 2026-07-28: how the task ended, carried by `tasks/get` itself. */
  readonly outcome?: () => ToolResult;
}

/** `tools/call` params as the Session sends them: the tool, its arguments, and the caller's `_meta` (`CallToolOptions.meta`). */
export type ToolCall = {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly _meta?: Record<string, unknown>;
};

/**
 * A 2026-07-28 `tools/call` answered with a task (`resultType: "task"`), as the
 * era hands it on: unparsed, for the tasks module to read. It has no `content`,
 * which every tool result has: that is how the Session tells the two apart.
 */
export type TaskAnswer = {
  readonly resultType: 'task';
  readonly content?: undefined;
};

/** A request's bounds as the task code sends it: a call's options plus the channel's own. */
export type TaskCallOptions = CallOptions & {
  readonly cancellable?: boolean;
  readonly headers?: Record<string, string>;
};

/**
 * One revision's task messages: how a task is created, polled, finished and
 * cancelled on the wire. The loop around them (`task-client.ts`) is the same
 * for both revisions.
 */
export interface TaskWire {
  /** Calls a tool asking for a task; a server that answers inline gives the result instead. */
  start(call: ToolCall, ttl: number | undefined, options: CallOptions): Promise<TaskReference | ToolResult>;
  /** Reads a creation answer `tools/call` gave (the raw result). */
  created(raw: unknown): TaskReference;
  get(taskId: string, options: TaskCallOptions): Promise<Polled>;
  /**
   * The task's result once it ended, or (2025-11-25) once it needs input:
   * `tasks/result` then carries the server's requests on its stream, and
   * answers when the task ends.
   */
  result(polled: Polled, options: TaskCallOptions): Promise<ToolResult>;
  /** 2026-07-28: answers to outstanding input requests (`tasks/update`). */
  update?(taskId: string, inputResponses: Record<string, unknown>, options: TaskCallOptions): Promise<void>;
  cancel(taskId: string, options: TaskCallOptions): Promise<void>;
}

/**
 * What the task code needs of the Session (structurally, so this module does
 * not import the Session that loads it): its one request path, what it knows
 * of the server, and how to list the tools.
 */
export interface TaskSession extends SessionRequests {
  readonly era: EraKind;
  listTools(options?: CallOptions): Promise<Tool[]>;
}

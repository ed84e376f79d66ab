import { CapabilityError } from '../../errors/capability-error.js';
import { LimitError } from '../../errors/limit-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { isTerminalStatus, ListTasksResultSchema, type TaskReference } from '../../protocol/tasks.js';
import type { Tool, ToolResult } from '../../protocol/tools.js';
import { sleep } from '../../util/backoff.js';
import type { Answering } from '../answering/index.js';
import {
  type CallOptions,
  type CallToolOptions,
  type ClientOptions,
  DEFAULT_MAX_INPUT_REQUESTS,
  DEFAULT_MAX_INPUT_ROUNDS,
} from '../options.js';
import { collectPages, page } from '../pagination.js';
import { parseCallTool, resultParser } from '../results/decode.js';
import { legacyWire } from './legacy-wire.js';
import { modernWire } from './modern-wire.js';
import type { TaskStartOptions, Tasks } from './task-api.js';
import type { Polled, TaskAnswer, TaskCallOptions, TaskSession, TaskWire, ToolCall } from './task-wire.js';

export type { TaskStartOptions, Tasks } from './task-api.js';
export type { TaskAnswer, TaskSession, ToolCall } from './task-wire.js';

/**
 * The wait between two polls of a task, in ms: the server's `pollInterval`
 * (`pollIntervalMs` in 2026-07-28) within these bounds, 1 s when it suggests none.
 * The floor keeps a `pollInterval` of 0 from spinning; the ceiling keeps one of
 * 1e12 (past what a timer can wait, so it would fire at once) or of a year from
 * leaving the task unwatched. A task that needs longer is simply polled more often.
 */
export const POLL_INTERVAL = { min: 10, max: 60_000, fallback: 1000 } as const;

/**
 * Tasks, an on-demand module the Session loads the first time a server
 * answers a `tools/call` with a task (`followToolCall`), a tool is called on
 * a 2025-11-25 server that declared `tasks` (`startToolCall`), or the app
 * uses `client.tasks`. One loop for both revisions (`TaskWire`
 * says how each speaks): poll at the server's interval, report each new
 * status, answer input, fetch the result; a `callTool` given up on cancels
 * its task with `tasks/cancel`, never `notifications/cancelled`.
 */
export class TaskClient implements Tasks {
  readonly #session: TaskSession;
  readonly #options: ClientOptions;
  readonly #answering: () => Promise<Answering>;
  /** The tools of the session's last `listTools()`. */
  readonly #listed: readonly Tool[];

  /** A client of `session`'s tasks; it keeps no state, so the Session makes one per use. */
  constructor(
    session: TaskSession,
    options: ClientOptions,
    answering: () => Promise<Answering>,
    listed: readonly Tool[],
  ) {
    this.#session = session;
    this.#options = options;
    this.#answering = answering;
    this.#listed = listed;
  }

  get #wire(): TaskWire {
    return (this.#session.era === 'modern' ? modernWire : legacyWire)(this.#session);
  }

  /**
   * `callTool` on a 2025-11-25 server that declared `tasks`: a tool listed
   * with `execution.taskSupport: "required"` (or `"optional"`, when the call
   * asked with `task: true`) is called as a task and followed to its result,
   * when the server declared `tasks.requests.tools.call`; any other tool is
   * called plainly. The tools are listed first when they were not, since such a
   * server answers a required-task tool called plainly with an `isError`
   * result, not an error the client could retry on. A plain call such a server
   * refuses with -32600 ("task augmentation required") is sent once more as a
   * task, and that outcome is final.
   */
  async startToolCall(call: ToolCall, options: CallToolOptions = {}): Promise<ToolResult> {
    const capabilities = this.#session.server?.capabilities.tasks as { requests?: { tools?: { call?: unknown } } };
    if (!capabilities?.requests?.tools?.call) return this.#plainCall(call, options);
    const named = (tool: Tool) => tool.name === call.name;
    const tool = this.#listed.find(named) ?? (await this.#session.listTools(options)).find(named);
    const support = tool?.execution?.taskSupport;
    if (support === 'required' || (support === 'optional' && options.task === true)) {
      return this.#callAsTask(call, options);
    }
    // Some servers refuse a plain call with -32600 "task augmentation required" (2025-11-25
    // basic/utilities/tasks): it is sent once more as a task, and only once: that call's outcome is final.
    return this.#plainCall(call, options).catch((error: unknown) => {
      if (error instanceof RpcError && error.code === ErrorCode.InvalidRequest) {
        return this.#callAsTask(call, options);
      }
      throw error;
    });
  }

  /**
   * `callTool` when a 2026-07-28 server answered with a task (`resultType:
   * "task"`): the task followed to its result, as if the tool had answered at once.
   */
  async followToolCall(answer: TaskAnswer, options: CallToolOptions = {}): Promise<ToolResult> {
    return this.#follow(this.#wire.created(answer), options, true);
  }

  #plainCall(call: ToolCall, options: CallToolOptions): Promise<ToolResult> {
    return this.#session.request('tools/call', 'tools', call, parseCallTool, options);
  }

  /** `tools/call` augmented with `task: {ttl}` (the call's hard cap, if any), followed to its result. */
  async #callAsTask(call: ToolCall, options: CallToolOptions): Promise<ToolResult> {
    const cap = options.maxTotalTimeout ?? this.#options.maxTotalTimeout;
    const started = await this.#wire.start(call, cap && cap !== Infinity ? cap : undefined, options);
    return 'taskId' in started ? this.#follow(started, options, true) : started;
  }

  start(name: string, args: Record<string, unknown> = {}, options: TaskStartOptions = {}) {
    return this.#wire.start({ name, arguments: args }, options.ttl, options);
  }

  async get(taskId: string, options: CallOptions = {}): Promise<TaskReference> {
    return (await this.#wire.get(taskId, options)).task;
  }

  async result(taskId: string, options: CallOptions & Pick<CallToolOptions, 'onTaskStatus'> = {}): Promise<ToolResult> {
    return this.#follow(undefined, options, false, taskId);
  }

  /** `tasks/cancel`; a 2025-11-25 server must have declared `tasks.cancel` (else a `CapabilityError`). */
  cancel(taskId: string, options: CallOptions = {}): Promise<void> {
    const session = this.#session;
    if (session.era !== 'modern' && !(session.server?.capabilities.tasks as { cancel?: unknown } | undefined)?.cancel) {
      return Promise.reject(new CapabilityError('tasks.cancel', 'tasks/cancel'));
    }
    return this.#wire.cancel(taskId, options);
  }

  list(options: CallOptions = {}): Promise<TaskReference[]> {
    const session = this.#session;
    if (session.era === 'modern') {
      return Promise.reject(new McpError('tasks/list: 2026-07-28 tasks have no list'));
    }
    if (!(session.server?.capabilities.tasks as { list?: unknown } | undefined)?.list) {
      return Promise.reject(new CapabilityError('tasks.list', 'tasks/list'));
    }
    const parse = resultParser('tasks/list', ListTasksResultSchema, (result) =>
      page(
        result.tasks.map((task) => this.#wire.created({ task })),
        result.nextCursor,
      ),
    );
    return collectPages('tasks/list', this.#options.limits, (cursor, _restart, onReceived) =>
      session.request('tasks/list', undefined, cursor === undefined ? undefined : { cursor }, parse, {
        ...options,
        onReceived,
      }),
    );
  }

  /**
   * Polls a task until it ends and returns its result. Each poll has the call's
   * timeout; the whole wait the call's hard cap (`maxTotalTimeout`) and signal.
   * A 2026-07-28 task's input requests are answered once per key, with the
   * client's handlers, at most `limits.maxInputRequests` a poll and
   * `limits.maxInputRounds` rounds. `cancels`: a bound passing or an abort
   * cancels the task (`callTool`), else it is left running (`tasks.result()`).
   */
  async #follow(
    first: TaskReference | undefined,
    options: CallToolOptions,
    cancels: boolean,
    taskId = first?.taskId as string,
  ): Promise<ToolResult> {
    const wire = this.#wire;
    const answering = await this.#answering();
    const { limits } = this.#options;
    const maxRounds = limits?.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    const maxInputs = limits?.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS;
    const bounds = { ...options, startedAt: performance.now() };
    let reported: string | undefined;
    let progress = 0;
    let ended = false;
    const report = (task: TaskReference) => {
      const seen = `${task.status} ${task.statusMessage}`;
      if (seen === reported) return;
      reported = seen;
      options.onTaskStatus?.(task);
      if (task.statusMessage !== undefined) options.onProgress?.({ progress: ++progress, message: task.statusMessage });
    };
    try {
      return await answering.run('tasks/get', { ...bounds, timeout: 0 }, async (signal) => {
        const polls: TaskCallOptions = { ...bounds, signal, cancellable: false };
        const answered = new Set<string>();
        let rounds = 0;
        let polled: Polled = first ? { task: first } : await wire.get(taskId, polls);
        for (;;) {
          const { task, inputRequests } = polled;
          report(task);
          ended = isTerminalStatus(task.status);
          if (ended || (task.status === 'input_required' && !wire.update)) return await wire.result(polled, polls);
          const open = Object.entries(inputRequests ?? {}).filter(([key]) => !answered.has(key));
          if (open.length > 0 && wire.update) {
            if (open.length > maxInputs) {
              throw new LimitError(
                'limits.maxInputRequests',
                maxInputs,
                `tasks/get: task ${taskId} asked for ${open.length} inputs at once, more than ${maxInputs}`,
              );
            }
            if (++rounds > maxRounds) {
              throw new LimitError(
                'limits.maxInputRounds',
                maxRounds,
                `tasks/get: task ${taskId} asked for input more than ${maxRounds} times`,
              );
            }
            const answers = await answering.answerInputs('tasks/get', Object.fromEntries(open), polls);
            for (const [key] of open) answered.add(key);
            await wire.update(taskId, answers, polls);
          } else {
            await sleep(task.pollInterval, signal, POLL_INTERVAL);
          }
          polled = await wire.get(taskId, polls);
        }
      });
    } catch (error) {
      if (cancels && !ended && !(error instanceof RpcError)) {
        // Given up on (abort, timeout, cap, a bound of ours): the server should stop the work too.
        this.cancel(taskId, { maxTotalTimeout: 0, cancellable: false } as TaskCallOptions).catch(() => {});
      }
      throw error;
    }
  }
}

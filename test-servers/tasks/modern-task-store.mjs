import { randomBytes } from 'node:crypto';

/**
 * A task's status (SEP-2663 § Task Status). `completed`, `failed` and
 * `cancelled` are terminal: nothing changes a task after one.
 * @typedef {'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'} TaskStatus
 */

/**
 * One server→client request a task waits on, as `inputRequests` carries it
 * (the multi-round-trip shape: `{method, params?}`).
 * @typedef {{ method: string, params?: Record<string, unknown> }} InputRequest
 */

/**
 * One task as the server holds it.
 * @typedef {object} TaskRecord
 * @property {string} taskId
 * @property {TaskStatus} status
 * @property {string} [statusMessage]
 * @property {string} createdAt ISO 8601
 * @property {string} lastUpdatedAt ISO 8601
 * @property {number | null} ttlMs
 * @property {number} pollIntervalMs
 * @property {Map<string, InputRequest>} inputRequests outstanding, by key
 * @property {Map<string, (response: unknown) => void>} waiting the work waiting on each outstanding key
 * @property {Set<string>} usedKeys every key ever asked: a key is never reused (SEP-2663 § Task Update Requests)
 * @property {Record<string, unknown>} [result] on `completed`: what tools/call would have returned
 * @property {{ code: number, message: string, data?: unknown }} [error] on `failed`: the JSON-RPC error
 */

/**
 * @typedef {object} ModernTaskStoreOptions
 * @property {number} [pollIntervalMs] suggested on every task; default {@link MODERN_POLL_INTERVAL_MS}
 * @property {number} [ttlMs] a task's lifetime from creation; default {@link MODERN_DEFAULT_TTL_MS}
 */

/** The `pollIntervalMs` a task suggests unless configured: short, so tests poll quickly. */
export const MODERN_POLL_INTERVAL_MS = 50;

/** How long a task lives from creation unless its tool asks otherwise, in ms. */
export const MODERN_DEFAULT_TTL_MS = 60_000;

/**
 * Why `get` found no task: never created (or purged), or past its TTL.
 * @typedef {'unknown' | 'expired'} MissingReason
 */

/**
 * The 2026-07-28 tasks of one server (a stdio process, or one HTTP URL):
 * SEP-2663's state machine, kept in memory. Work runs in the same process and
 * drives a task through {@link ModernTaskStore}'s methods; `tasks/get`,
 * `tasks/update` and `tasks/cancel` read and answer it. A task past
 * `createdAt + ttlMs` is forgotten (the spec lets a server discard it).
 * @param {ModernTaskStoreOptions} [options]
 */
export function createModernTaskStore({
  pollIntervalMs = MODERN_POLL_INTERVAL_MS,
  ttlMs: defaultTtlMs = MODERN_DEFAULT_TTL_MS,
} = {}) {
  /** @type {Map<string, TaskRecord>} */
  const tasks = new Map();

  /** @param {TaskRecord} task @param {TaskStatus} status @param {string} [message] */
  function move(task, status, message) {
    task.status = status;
    if (message !== undefined) task.statusMessage = message;
    task.lastUpdatedAt = new Date().toISOString();
  }

  return {
    /**
     * A new task in `working`, durably created before its CreateTaskResult is
     * sent (SEP-2663 § Task Creation). Task ids are 128 random bits: nothing
     * binds a task to a caller here, so the id must not be guessable.
     * @param {{ ttlMs?: number | null, statusMessage?: string }} [options]
     * @returns {TaskRecord}
     */
    create({ ttlMs = defaultTtlMs, statusMessage } = {}) {
      const now = new Date().toISOString();
      /** @type {TaskRecord} */
      const task = {
        taskId: randomBytes(16).toString('hex'),
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs,
        pollIntervalMs,
        inputRequests: new Map(),
        waiting: new Map(),
        usedKeys: new Set(),
        ...(statusMessage !== undefined && { statusMessage }),
      };
      tasks.set(task.taskId, task);
      return task;
    },

    /**
     * The task, or why there is none.
     * @param {string} taskId
     * @returns {{ task: TaskRecord } | { missing: MissingReason }}
     */
    get(taskId) {
      const task = tasks.get(taskId);
      if (task === undefined) return { missing: 'unknown' };
      if (task.ttlMs !== null && Date.parse(task.createdAt) + task.ttlMs < Date.now()) {
        tasks.delete(taskId);
        return { missing: 'expired' };
      }
      return { task };
    },

    /**
     * @param {TaskRecord} task
     * @returns {boolean} whether the task reached `completed`, `failed` or `cancelled`
     */
    isTerminal(task) {
      return task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
    },

    /**
     * Sets the status message of a working task; false once the task is terminal
     * (cancelled, say), so the work knows to stop.
     * @param {TaskRecord} task
     * @param {string} message
     */
    progress(task, message) {
      if (this.isTerminal(task)) return false;
      move(task, task.inputRequests.size > 0 ? 'input_required' : 'working', message);
      return true;
    },

    /**
     * Asks the client for input under a key never used before in this task:
     * the task shows `input_required` with it in `inputRequests` until a
     * `tasks/update` brings the response, which this resolves with. Rejects if
     * the task ends first (cancelled).
     * @param {TaskRecord} task
     * @param {string} key
     * @param {InputRequest} request
     * @param {string} [message] the statusMessage while waiting
     * @returns {Promise<unknown>}
     */
    ask(task, key, request, message) {
      if (task.usedKeys.has(key)) throw new Error(`input key ${key} was already used in task ${task.taskId}`);
      if (this.isTerminal(task)) return Promise.reject(new Error(`task ${task.taskId} is ${task.status}`));
      task.usedKeys.add(key);
      task.inputRequests.set(key, request);
      move(task, 'input_required', message);
      return new Promise((resolve) => task.waiting.set(key, resolve));
    },

    /**
     * Takes a `tasks/update`'s `inputResponses`: each key still outstanding is
     * answered; any other key (never asked, already answered) is ignored, as
     * SEP-2663 says a server SHOULD. Partial sets are fine. Back to `working`
     * once nothing is outstanding.
     * @param {TaskRecord} task
     * @param {Record<string, unknown>} inputResponses
     * @returns {string[]} the keys it accepted
     */
    answer(task, inputResponses) {
      const accepted = [];
      for (const [key, response] of Object.entries(inputResponses)) {
        const resolve = task.waiting.get(key);
        if (resolve === undefined) continue;
        task.waiting.delete(key);
        task.inputRequests.delete(key);
        accepted.push(key);
        resolve(response);
      }
      if (accepted.length > 0 && task.inputRequests.size === 0 && !this.isTerminal(task)) move(task, 'working');
      return accepted;
    },

    /**
     * Ends a task with what tools/call would have returned (an `isError`
     * result included: SEP-2663 keeps `failed` for JSON-RPC errors).
     * @param {TaskRecord} task
     * @param {Record<string, unknown>} result
     * @param {string} [message]
     */
    complete(task, result, message) {
      if (this.isTerminal(task)) return;
      task.result = result;
      move(task, 'completed', message);
    },

    /**
     * Ends a task with a JSON-RPC error.
     * @param {TaskRecord} task
     * @param {{ code: number, message: string, data?: unknown }} error
     */
    fail(task, error) {
      if (this.isTerminal(task)) return;
      task.error = error;
      move(task, 'failed', error.message);
    },

    /**
     * Honours a `tasks/cancel` at once when the task is still running: status
     * `cancelled`, outstanding input requests dropped. A terminal task stays
     * as it is (the ack is all the spec asks for).
     * @param {TaskRecord} task
     */
    cancel(task) {
      if (this.isTerminal(task)) return;
      task.inputRequests.clear();
      task.waiting.clear();
      move(task, 'cancelled', 'cancelled by the client');
    },

    /**
     * The task as `tasks/get` answers it: a DetailedTask (SEP-2663 § Tasks)
     * with `inputRequests` on `input_required`, `result` on `completed`,
     * `error` on `failed`.
     * @param {TaskRecord} task
     * @returns {Record<string, unknown>}
     */
    detailed(task) {
      return {
        ...this.summary(task),
        ...(task.status === 'input_required' && { inputRequests: Object.fromEntries(task.inputRequests) }),
        ...(task.status === 'completed' && { result: task.result }),
        ...(task.status === 'failed' && { error: task.error }),
      };
    },

    /**
     * The Task fields alone, as a CreateTaskResult carries them.
     * @param {TaskRecord} task
     * @returns {Record<string, unknown>}
     */
    summary(task) {
      return {
        taskId: task.taskId,
        status: task.status,
        ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
        createdAt: task.createdAt,
        lastUpdatedAt: task.lastUpdatedAt,
        ttlMs: task.ttlMs,
        pollIntervalMs: task.pollIntervalMs,
      };
    },
  };
}

/** @typedef {ReturnType<typeof createModernTaskStore>} ModernTaskStore */

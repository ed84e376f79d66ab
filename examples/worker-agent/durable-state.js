// What one agent keeps in its Durable Object's storage besides its servers
// (which its Servers set keeps, see user-servers.js): the background tasks it
// started.

const TASKS_KEY = 'tasks';

/**
 * A background task the agent started and has not yet reported as finished.
 * @typedef {object} StoredTask
 * @property {string} taskId the server's id
 * @property {string} [server] the server it runs on (`main` for a task stored before servers had names)
 * @property {string} tool the tool as the model named it
 * @property {string} startedAt ISO time
 */

/**
 * @param {DurableObjectStorage} storage
 * @returns {Promise<StoredTask[]>}
 */
export async function loadTasks(storage) {
  return (await storage.get(TASKS_KEY)) ?? [];
}

/**
 * @param {DurableObjectStorage} storage
 * @param {StoredTask[]} tasks
 */
export function saveTasks(storage, tasks) {
  return storage.put(TASKS_KEY, tasks);
}

/**
 * The one small shape every client under test is put behind, so the workloads
 * run the same code for each. Each module in this folder exports `load(kind)`:
 * it imports its library (what "memory after loading" measures) and returns a
 * factory of sessions.
 *
 * @typedef {{ kind: 'http', mode: 'stateful' | 'stateless' | 'modern', url: string }
 *   | { kind: 'stdio', command: string, args?: string[] }} Target
 * @typedef {object} Session
 * @property {() => Promise<void>} connect
 * @property {(name: string, args: Record<string, unknown>) => Promise<readonly any[]>} call the result's content parts
 * @property {() => Promise<void>} close
 * @property {() => string | undefined} era the protocol version (or era) the connection speaks
 * @typedef {(kind: 'http' | 'stdio') => Promise<(target: Target) => Session>} Load
 */

/** The clients under test, by name: the floor first, ours second. */
export const CLIENTS = ['floor', 'mcp', 'sdk-v2', 'sdk-v1', 'ai-sdk'];

/** @param {string} name */
export function loadAdapter(name) {
  if (!CLIENTS.includes(name)) throw new Error(`unknown client ${name}`);
  return import(`./${name}.mjs`);
}

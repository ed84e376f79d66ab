/* @ts-self-types="./run-scenario.d.ts" */
/**
 * Runs one shared scenario by name and reports the outcome as plain JSON, for
 * the runtimes whose scenarios run on the far side of a boundary (a Chromium
 * page, a workerd worker) and must send the result back as data.
 */
import { assert } from './assert.js';
import { scenarios } from './scenarios.js';

/** `{ ok: true }`, or `{ ok: false, error }` with the failure's name, message and stack. */
export async function runScenario(core, name, urls) {
  const scenario = scenarios.find((s) => s.name === name);
  if (!scenario) return { ok: false, error: `no scenario named ${JSON.stringify(name)}` };
  try {
    await scenario.run(core, urls, assert);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** An error as text that survives the trip back as JSON: name, message and stack. */
export function describeError(error) {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}

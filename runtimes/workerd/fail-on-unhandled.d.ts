import type { ScenarioOutcome } from '../run-scenario.js';

/** `run()`'s outcome, or `{ ok: false, error }` naming every rejection left unhandled meanwhile. */
export function failOnUnhandled(run: () => Promise<ScenarioOutcome>): Promise<ScenarioOutcome>;

import type { Core, ServerUrls } from './scenarios.js';

/** What running one scenario on the far side of a boundary reports back. */
export type ScenarioOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** Runs the scenario named `name` with the shared assertion helper. */
export function runScenario(core: Core, name: string, urls: ServerUrls): Promise<ScenarioOutcome>;

/** An error as text that survives the trip back as JSON: name, message and stack. */
export function describeError(error: unknown): string;

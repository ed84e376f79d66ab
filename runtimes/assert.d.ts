import type { Assert } from './scenarios.js';

/** Thrown when a scenario's expectation does not hold. */
export declare class AssertionError extends Error {}

/** The assertion helper every runtime passes to the scenarios. */
export declare const assert: Assert;

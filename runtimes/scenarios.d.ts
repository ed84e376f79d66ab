/** The @mcp/core module object (the bundle or the package), as a runtime imported it. */
export type Core = object;

/** Base URLs of the HTTP test servers (test-servers/http/serve.mjs). */
export interface ServerUrls {
  /** The modes server: `/stateful`, `/stateless`, `/legacy-sse`, … */
  readonly modes: string;
  /** The fault server with its control API at `POST /faults`. */
  readonly faults: string;
}

/** The helper of assert.js; any object with these methods will do. */
export interface Assert {
  ok(condition: unknown, message: string): void;
  equal(actual: unknown, expected: unknown, message: string): void;
  deepEqual(actual: unknown, expected: unknown, message: string): void;
  rejects(promise: Promise<unknown>, message: string): Promise<unknown>;
}

/** One end-to-end scenario: makes its own Client (with an eraCache of its own), runs, closes it; throws when something is wrong. */
export type Scenario = (core: Core, urls: ServerUrls, assert: Assert) => Promise<void>;

export interface NamedScenario {
  /** The exported function's name. */
  readonly name: string;
  /** The behaviour it pins, for test titles. */
  readonly title: string;
  readonly run: Scenario;
}

export declare const publicExports: Scenario;
export declare const memoryPair: Scenario;
export declare const scriptedServerRoundTrip: Scenario;
export declare const connectAndListTools: Scenario;
export declare const callWithProgress: Scenario;
export declare const serverRequestAnsweredByHandler: Scenario;
export declare const resumedStream: Scenario;
export declare const expiredSession: Scenario;
export declare const retryAfter503: Scenario;
export declare const abortCall: Scenario;
export declare const statelessJson: Scenario;
export declare const legacySseFallback: Scenario;
export declare const modernStateless: Scenario;
export declare const modernSameHandlers: Scenario;
export declare const mrtrShapes: Scenario;
export declare const xMcpHeaders: Scenario;
export declare const modernListen: Scenario;
export declare const ttlCache: Scenario;
export declare const modernAbort: Scenario;
export declare const modernErrors: Scenario;
export declare const eraVerdictCached: Scenario;
export declare const outputValidation: Scenario;

/** Every scenario, in run order. */
export declare const scenarios: readonly NamedScenario[];

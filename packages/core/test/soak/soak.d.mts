/** Types of the shared soak module (soak.mjs, plain JS so `pnpm soak` runs it on Node without a build step). */

export interface SoakOptions {
  // The classes under test: the sources in the test suite, the built package in `pnpm soak`.
  // biome-ignore lint/suspicious/noExplicitAny: any version of the classes, source or built
  readonly Client: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  readonly StreamableHttpTransport: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  readonly McpError: any;
  /** Calls in all (default 1500). */
  readonly calls?: number;
  /** Stop starting calls after this many seconds (default: no limit). */
  readonly seconds?: number;
  /** Clients running side by side (default 4). */
  readonly clients?: number;
  /** Calls in flight per client (default 4). */
  readonly concurrency?: number;
  /** Seeds the fault PRNG (default 12). */
  readonly seed?: number;
  /** Share of `tools/call` requests (and resumption GETs) that meet a fault (default 0.3). */
  readonly faultRate?: number;
  readonly log?: (line: string) => void;
}

export interface SoakReport {
  readonly calls: number;
  readonly resolved: number;
  readonly rejected: Record<string, number>;
  readonly reasons: Record<string, number>;
  readonly unhandled: string[];
  readonly untyped: string[];
  readonly unsettled: number;
  readonly faults: Record<string, number>;
  readonly resent: number;
  readonly sessionless: Record<string, number>;
  /** Session renewals: an `initialize` a client sent after a 404 to its session id. */
  readonly renewals: number;
  /** Clients replaced after their connection ended. */
  readonly reconnects: number;
  readonly maxExecutions: number;
  readonly ranTwice: string[];
  readonly resolvedUnrun: string[];
  readonly maxAbortListeners: number;
  readonly inFlight: number;
  readonly abortListenersAfter: number;
  readonly openResponsesAfter: number;
  readonly resources: Record<string, [number, number]>;
  readonly heap: { readonly before: number; readonly after: number };
  readonly seconds: number;
}

export const HEAP_TOLERANCE_MB: number;
export function runSoak(options: SoakOptions): Promise<SoakReport>;
export function problems(report: SoakReport): string[];
export function summary(report: SoakReport): string;

/** Types of the stdio leg of the soak (stdio-soak.mjs). */

export interface StdioSoakOptions {
  // biome-ignore lint/suspicious/noExplicitAny: the classes under test, source or built
  readonly Client: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  readonly StdioTransport: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  readonly McpError: any;
  /** Child processes started one after another (default 12). */
  readonly rounds?: number;
  /** Calls started in each round, all at once (default 20). */
  readonly callsPerRound?: number;
  /** Seeds the PRNG that picks each round's fault (default 12). */
  readonly seed?: number;
  /**
   * How long a round waits with no call settling before it reports the rest
   * unsettled and moves on (default 15000: past the client's 10 s requestTimeout).
   */
  readonly stuckMs?: number;
}

export interface StdioSoakReport {
  readonly rounds: number;
  readonly calls: number;
  readonly resolved: number;
  readonly rejected: Record<string, number>;
  readonly untyped: string[];
  readonly wrongResults: string[];
  /** Calls that had not settled when their round stopped waiting. */
  readonly unsettled: number;
  readonly faults: Record<string, number>;
  /** Calls per fault, and those answered with their own text (all, under `none` and `noise`). */
  readonly byFault: Record<string, { readonly calls: number; readonly answered: number }>;
  readonly aliveAfter: number[];
  readonly abortListenersAfter: number;
  readonly resources: Record<string, [number, number]>;
  readonly seconds: number;
}

export function runStdioSoak(options: StdioSoakOptions): Promise<StdioSoakReport>;
export function stdioProblems(report: StdioSoakReport): string[];
export function stdioSummary(report: StdioSoakReport): string;

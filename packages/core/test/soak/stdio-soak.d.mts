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
}

export interface StdioSoakReport {
  readonly rounds: number;
  readonly calls: number;
  readonly resolved: number;
  readonly rejected: Record<string, number>;
  readonly untyped: string[];
  readonly wrongResults: string[];
  readonly faults: Record<string, number>;
  readonly aliveAfter: number[];
  readonly abortListenersAfter: number;
  readonly resources: Record<string, [number, number]>;
  readonly seconds: number;
}

export function runStdioSoak(options: StdioSoakOptions): Promise<StdioSoakReport>;
export function stdioProblems(report: StdioSoakReport): string[];
export function stdioSummary(report: StdioSoakReport): string;

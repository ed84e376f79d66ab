/** A step as `schedule` sees it: its name, the steps it waits for, the names it holds while it runs. */
export interface ScheduledStep {
  readonly name: string;
  readonly after?: readonly string[];
  readonly shares?: readonly string[];
}

export function schedule<Step extends ScheduledStep, Outcome>(
  steps: readonly Step[],
  jobs: number,
  run: (step: Step) => Promise<Outcome>,
): Promise<Outcome[]>;

export const DEFAULT_JOBS: number;
export const MAX_JOBS: number;
export function jobsFrom(value: string | undefined): number;

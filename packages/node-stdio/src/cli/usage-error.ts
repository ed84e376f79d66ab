/** The command line itself is wrong: reported in one line, exit status 2, nothing spawned. */
export class UsageError extends Error {
  override name = 'UsageError';
}

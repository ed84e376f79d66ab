import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of a file in the repository. */
export const repoPath = (path: string): string => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

/**
 * Fails (never skips) when a built file is missing: these checks are about `dist`,
 * and a missing build must show up as a red test, not a silent pass.
 */
export function requireBuilt(...paths: string[]): void {
  const missing = paths.filter((path) => !existsSync(repoPath(path)));
  if (missing.length > 0) {
    throw new Error(
      `built output missing: ${missing.join(', ')}. Run \`pnpm build\` first (npm test builds before vitest).`,
    );
  }
}

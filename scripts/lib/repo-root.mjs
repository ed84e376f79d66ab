import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whatever the caller's working directory: scripts run from anywhere. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

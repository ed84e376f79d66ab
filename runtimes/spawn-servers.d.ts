import type { ServerUrls } from './scenarios.js';

/** The HTTP test servers running in a Node child process. */
export interface SpawnedServers {
  readonly urls: ServerUrls;
  /** Closes the child's stdin, which ends it, and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `node test-servers/http/serve.mjs` and resolves once it printed its URLs. */
export function spawnHttpServers(): Promise<SpawnedServers>;

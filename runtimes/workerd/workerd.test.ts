import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import type { ScenarioOutcome } from '../run-scenario.js';
import { scenarios } from '../scenarios.js';
import { checkedWorkers } from './checked-workers.js';
import type { StartedWorker } from './start-worker.js';

describe('shared runtime scenarios in workerd (miniflare, packages/core/dist/core.bundle.js)', () => {
  const workers = checkedWorkers();
  let servers: Awaited<ReturnType<typeof startHttpServers>> | undefined;
  let worker: StartedWorker | undefined;
  let urls = '';

  beforeAll(async () => {
    servers = await startHttpServers();
    urls = JSON.stringify({ modes: servers.modes, faults: servers.faults });
    worker = workers.start(new URL('./worker.js', import.meta.url));
  });
  afterAll(async () => {
    await servers?.close();
  });

  for (const scenario of scenarios) {
    it(scenario.title, async () => {
      const query = new URLSearchParams({ scenario: scenario.name, urls });
      const response = await worker!.mf.dispatchFetch(`http://worker.test/?${query}`);
      const outcome = (await response.json()) as ScenarioOutcome;
      expect(outcome).toEqual({ ok: true });
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import type { ScenarioOutcome } from '../run-scenario.js';
import { scenarios } from '../scenarios.js';
import { type StartedWorker, startWorker } from './start-worker.js';

describe('shared runtime scenarios in workerd (miniflare, packages/core/dist/core.bundle.js)', () => {
  let servers: Awaited<ReturnType<typeof startHttpServers>> | undefined;
  let worker: StartedWorker | undefined;
  let urls = '';

  beforeAll(async () => {
    servers = await startHttpServers();
    urls = JSON.stringify({ modes: servers.modes, faults: servers.faults });
    worker = startWorker(new URL('./worker.js', import.meta.url));
  });
  afterAll(async () => {
    await worker?.mf.dispose();
    await servers?.close();
    // workerd's last lines may arrive after the test that caused them ended.
    expect(worker?.uncaught ?? []).toEqual([]);
  });

  for (const scenario of scenarios) {
    it(scenario.title, async () => {
      const query = new URLSearchParams({ scenario: scenario.name, urls });
      const response = await worker!.mf.dispatchFetch(`http://worker.test/?${query}`);
      const outcome = (await response.json()) as ScenarioOutcome;
      expect(outcome).toEqual({ ok: true });
      expect(worker!.uncaught.splice(0)).toEqual([]);
    });
  }
});

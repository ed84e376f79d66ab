import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import type { ScenarioOutcome } from '../run-scenario.js';
import { scenarios } from '../scenarios.js';
import { watchUncaught } from './watch-uncaught.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('shared runtime scenarios in workerd (miniflare, packages/core/dist/core.bundle.js)', () => {
  let servers: Awaited<ReturnType<typeof startHttpServers>> | undefined;
  let mf: Miniflare | undefined;
  let urls = '';
  const { uncaught, options: watchOptions } = watchUncaught();

  beforeAll(async () => {
    servers = await startHttpServers();
    urls = JSON.stringify({ modes: servers.modes, faults: servers.faults });
    mf = new Miniflare({
      modules: true,
      scriptPath: fileURLToPath(new URL('./worker.js', import.meta.url)),
      modulesRoot: repoRoot,
      // Miniflare's default rules read *.js as CommonJS; every file the worker loads is an ES module.
      modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
      compatibilityDate: '2025-09-01',
      // Without it, workerd reports a rejection as unhandled even when a handler is attached
      // later in the same microtask checkpoint: cancelling a fetch body with a read pending
      // does that with a promise of its own. The flag is on by default from 2026-03-03.
      compatibilityFlags: ['unhandled_rejection_after_microtask_checkpoint'],
      ...watchOptions,
    });
  });
  afterAll(async () => {
    await mf?.dispose();
    await servers?.close();
    // workerd's last lines may arrive after the test that caused them ended.
    expect(uncaught).toEqual([]);
  });

  for (const scenario of scenarios) {
    it(scenario.title, async () => {
      const query = new URLSearchParams({ scenario: scenario.name, urls });
      const response = await mf!.dispatchFetch(`http://worker.test/?${query}`);
      const outcome = (await response.json()) as ScenarioOutcome;
      expect(outcome).toEqual({ ok: true });
      expect(uncaught.splice(0)).toEqual([]);
    });
  }
});

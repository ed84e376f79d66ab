import { afterAll, beforeAll, describe, it } from 'vitest';
// The built package, as a Node user imports it (deps resolved from node_modules), not the sources.
import * as core from '../../packages/core/dist/index.js';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import { assert } from '../assert.js';
import { type ServerUrls, scenarios } from '../scenarios.js';

describe('shared runtime scenarios in Node (packages/core/dist/index.js)', () => {
  let servers: Awaited<ReturnType<typeof startHttpServers>> | undefined;
  let urls: ServerUrls;

  beforeAll(async () => {
    servers = await startHttpServers();
    urls = { modes: servers.modes, faults: servers.faults };
  });
  afterAll(() => servers?.close());

  for (const scenario of scenarios) {
    it(scenario.title, () => scenario.run(core, urls, assert));
  }
});

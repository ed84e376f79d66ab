// Run: pnpm exec bun test ./runtimes/bun   (the ./ matters: without it bun runs every *.test.* it finds)
// The built package, as a Bun user imports it: bare dependencies resolve from node_modules.
import { afterAll, beforeAll, describe, test } from 'bun:test';
import * as core from '../../packages/core/dist/index.js';
import { assert } from '../assert.js';
import { scenarios } from '../scenarios.js';
import { spawnHttpServers } from '../spawn-servers.js';

describe('shared runtime scenarios in Bun (packages/core/dist/index.js)', () => {
  let servers;
  beforeAll(async () => {
    servers = await spawnHttpServers();
  });
  afterAll(() => servers?.stop());

  for (const scenario of scenarios) {
    test(`Bun: ${scenario.title}`, () => scenario.run(core, servers.urls, assert), 20_000);
  }
});

// Run: DENO_NO_UPDATE_CHECK=1 pnpm exec deno test --config runtimes/deno/deno.json
//        --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=node runtimes/deno/
// The explicit --config matters: without it Deno finds pnpm-workspace.yaml and rewrites package.json.
// @mcp/core maps to the self-contained bundle (deno.json), so no npm: download is needed.
import * as core from '@mcp/core';
import { assert } from '../assert.js';
import { scenarios } from '../scenarios.js';
import { spawnHttpServers } from '../spawn-servers.js';

const servers = await spawnHttpServers();
// After the last test: Deno has no afterAll, and the unload event fires once every test ran.
globalThis.addEventListener('unload', () => void servers.stop());

for (const scenario of scenarios) {
  Deno.test(`Deno: ${scenario.title}`, () => scenario.run(core, servers.urls, assert));
}

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import { assert } from '../assert.js';
import { type ServerUrls, scenarios } from '../scenarios.js';

/**
 * The Node major the runner asked for: scripts/test/steps.mjs runs this file again on the
 * Node 22 and 24 binaries of runtimes/node/package.json and names the major it expects, so
 * a runner that fell back to another Node fails instead of passing on the wrong one. Without
 * it (the main vitest run), the Node must be one the packages support (engines: >=20.19).
 */
const expectedMajor = process.env.MCP_NODE_MAJOR;

/**
 * `@mcp/core` as a Node app gets it: resolved from this folder's node_modules (runtimes/node
 * depends on it) through the package's exports: dist/index.js, the built entry, not the
 * sources (vitest's alias) nor the no-bundler build.
 */
const coreEntry = createRequire(import.meta.url).resolve('@mcp/core');
const core: typeof import('@mcp/core') = await import(pathToFileURL(coreEntry).href);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

describe('shared runtime scenarios in Node (@mcp/core as Node resolves it: dist/index.js)', () => {
  let servers: Awaited<ReturnType<typeof startHttpServers>> | undefined;
  let urls: ServerUrls;

  beforeAll(async () => {
    servers = await startHttpServers();
    urls = { modes: servers.modes, faults: servers.faults };
  });
  afterAll(() => servers?.close());

  it('loads the built entry of @mcp/core', () => {
    assert.ok(coreEntry.endsWith('/packages/core/dist/index.js'), coreEntry);
  });

  it(`runs on Node ${expectedMajor ?? '>= 20.19'}`, () => {
    if (expectedMajor) assert.equal(String(major), expectedMajor, 'process.versions.node major');
    else assert.ok(major > 20 || (major === 20 && minor >= 19), `Node ${process.versions.node} is below 20.19`);
  });

  for (const scenario of scenarios) {
    it(scenario.title, () => scenario.run(core, urls, assert));
  }
});

import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

interface WorkerReport {
  exports: string[];
  memory: { ok: boolean; value?: unknown; error?: string };
  client: { ok: boolean; value?: unknown; error?: string };
}

describe('dist/core.bundle.js in workerd (miniflare)', () => {
  let mf: Miniflare | undefined;
  afterAll(() => mf?.dispose());

  it('loads in a worker and runs a Client against a scripted server', async () => {
    requireBuilt('packages/core/dist/core.bundle.js');
    mf = new Miniflare({
      modules: true,
      scriptPath: repoPath('packages/core/test/build/fixtures/worker.js'),
      modulesRoot: repoPath('packages/core'),
      // Miniflare's default rules read *.js as CommonJS; these are ES modules.
      modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
      compatibilityDate: '2025-09-01',
    });
    const response = await mf.dispatchFetch('http://worker.test/');
    const report = (await response.json()) as WorkerReport;

    expect(report.exports).toEqual(expect.arrayContaining(['Client', 'MemoryTransport', 'McpError']));
    expect(report.memory).toEqual({ ok: true, value: [{ jsonrpc: '2.0', id: 1, method: 'ping' }] });
    expect(report.client).toEqual({
      ok: true,
      value: {
        protocolVersion: '2025-11-25',
        serverName: 'scripted-server',
        tools: ['echo'],
        text: 'echo: hello',
        isError: false,
        unexpected: [],
      },
    });
  });
});

import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

const run = promisify(execFile);
const script = repoPath(`packages/node-stdio/.tmp/require-all-${process.pid}.cjs`);

describe('a CommonJS program on Node 20 (require of ESM)', () => {
  afterAll(() => rmSync(script, { force: true }));

  it('requires @mcp/core, @mcp/core/protocol, @mcp/core/transport and @mcp/node-stdio and sees their exports', async () => {
    requireBuilt(
      'packages/core/dist/index.js',
      'packages/core/dist/protocol.js',
      'packages/core/dist/transport.js',
      'packages/node-stdio/dist/index.js',
    );
    mkdirSync(repoPath('packages/node-stdio/.tmp'), { recursive: true });
    copyFileSync(repoPath('packages/core/test/build/fixtures/require-all.cjs'), script);

    const { stdout } = await run(process.execPath, [script], { cwd: repoPath('packages/node-stdio'), timeout: 15_000 });
    const report = JSON.parse(stdout);

    expect(report).toMatchObject({
      coreClient: 'function',
      coreMemoryTransport: 'function',
      transportMessageQueue: 'function',
      mainMessageQueue: 'undefined',
      stdioTransport: 'function',
      latestProtocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(report.protocolVersions).toContain('2024-11-05');
    expect(report.protocolVersions).toContain(report.latestProtocolVersion);
  });
});

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { steps } from '../../scripts/test/steps.mjs';
import { missingNodeBinary, nodeBinaryPath, requireNodeBinary } from './binaries.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const real = { platform: process.platform, arch: process.arch };
/** This process seen as another platform, as on a machine where the linux-x64 binaries were not installed. */
const pretend = (platform: string, arch: string) => {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
  Object.defineProperty(process, 'arch', { value: arch, configurable: true });
};
afterEach(() => pretend(real.platform, real.arch));

describe("runtimes/node's Node binaries", () => {
  it.runIf(real.platform === 'linux' && real.arch === 'x64')('are here on linux-x64', () => {
    expect(missingNodeBinary(22)).toBeUndefined();
    expect(requireNodeBinary(24)).toBe(nodeBinaryPath(24));
  });

  it.each(['node22', 'node24', 'ai-sdk-ai7'])(
    'the %s step fails with "no Node … binary for darwin-arm64" elsewhere, before running anything',
    (name) => {
      const step = steps.find((candidate) => candidate.name === name) as unknown as { before: () => void };
      pretend('darwin', 'arm64');
      const major = name === 'node24' ? 24 : 22;
      expect(() => step.before()).toThrow(`no Node ${major} binary for darwin-arm64`);
    },
  );

  it.runIf(Number(process.versions.node.split('.')[0]) < 22)(
    'pnpm changeset on Node 20 says there is no Node 24 binary for the platform, and exits 1',
    () => {
      const faked = `Object.defineProperty(process, 'platform', { value: 'win32' });`;
      const result = spawnSync(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(faked)}`, 'scripts/publish/changeset.mjs', 'status'],
        { cwd: repoRoot, encoding: 'utf8' },
      );
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`no Node 24 binary for win32-${real.arch}`);
    },
  );
});

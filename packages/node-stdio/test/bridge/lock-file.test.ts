import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/cli/bridge/token-store.js';
import { takeLock } from '../../src/private-files/lock-file.js';
import { nextLineOf } from '../process-lines.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-lock-file-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const server = new URL('https://mcp.example.com/mcp');
let n = 0;
const fresh = async () => {
  const directory = join(root, `dir-${n++}`);
  await mkdir(directory, { mode: 0o700 });
  return directory;
};
const aMinuteAgo = () => new Date(Date.now() - 60_000);

describe('lock files', () => {
  it.each([
    ['a dangling symbolic link', (path: string) => symlink(join(root, 'nowhere'), path)],
    ['a directory with something in it', (path: string) => mkdir(join(path, 'inside'), { recursive: true })],
    ['a file of garbage', (path: string) => writeFile(path, 'not a lock \u0000\u0001')],
    ['an empty file', (path: string) => writeFile(path, '')],
  ])('%s at the lock path is taken over at once: the write goes through', async (_, plant) => {
    const directory = await fresh();
    const store = new FileOAuthStore(directory, server, { lockWaitMs: 200 });
    await plant(`${store.file}.lock`);
    await store.set('k', 1);
    expect(await store.get('k')).toBe(1);
    // Nothing is left but the file: the jam is gone with the write's own lock.
    expect(await readdir(directory)).toEqual([store.file.split('/').pop()]);
  });

  it('a lock another bridge holds is waited for, then the write fails; a stale one is taken over', async () => {
    const directory = await fresh();
    const path = join(directory, 'x.lock');
    const release = await takeLock(path, 0);
    await expect(takeLock(path, 100)).rejects.toThrow(`locked by another bridge (${path}) for more than 100 ms`);
    await release();
    (await takeLock(path, 0))();
  });

  it('a release removes the lock only while it holds our own id: not the one that took over a stale one', async () => {
    const directory = await fresh();
    const path = join(directory, 'x.lock');
    const releaseFirst = await takeLock(path, 0);
    // The first holder stalled past the stale age; a second bridge takes over.
    await utimes(path, aMinuteAgo(), aMinuteAgo());
    const releaseSecond = await takeLock(path, 0);
    const second = await readFile(path, 'utf8');
    await releaseFirst();
    expect(await readFile(path, 'utf8')).toBe(second);
    await expect(takeLock(path, 50)).rejects.toThrow('locked by another bridge');
    await releaseSecond();
    expect(await readdir(directory)).toEqual([]);
  });

  describe('two processes racing for one stale lock', () => {
    let racer: string;
    beforeAll(async () => {
      // Each racer is a real process running the lock code, bundled from the sources.
      racer = join(root, 'racer.mjs');
      const lockFile = fileURLToPath(new URL('../../src/private-files/lock-file.ts', import.meta.url));
      await build({
        stdin: { contents: RACER, resolveDir: root, loader: 'ts' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: racer,
        logLevel: 'silent',
        alias: { 'lock-file': lockFile },
      });
    });

    it('exactly one wins, round after round', async () => {
      const racers = [spawnRacer(racer), spawnRacer(racer)];
      try {
        await Promise.all(racers.map((one) => one.next()));
        const directory = await fresh();
        for (let round = 0; round < 12; round++) {
          const path = join(directory, `round-${round}.lock`);
          // Left by a bridge that died a minute ago.
          await writeFile(path, '12345');
          await utimes(path, aMinuteAgo(), aMinuteAgo());
          for (const one of racers) one.child.stdin.write(`${path}\n`);
          const outcomes = await Promise.all(racers.map((one) => one.next()));
          const lost = outcomes.filter((outcome) => outcome.startsWith('lost: the token store is locked by another'));
          expect([outcomes.length - lost.length, lost.length], `round ${round}: ${outcomes}`).toEqual([1, 1]);
          expect(outcomes).toContain('won');
        }
      } finally {
        for (const one of racers) one.child.kill();
      }
    });
  });
});

/**
 * A racer: says `ready`, then for each lock path on stdin tries to take it
 * (waiting at most 150 ms), says `won` or `lost`, and holds a won lock 400 ms
 * (longer than the other waits) before it releases it.
 */
const RACER = `
import { createInterface } from 'node:readline';
import { takeLock } from 'lock-file';
process.stdout.write('ready\\n');
for await (const path of createInterface({ input: process.stdin })) {
  let release;
  try {
    release = await takeLock(path, 150);
  } catch (error) {
    process.stdout.write(\`lost: \${error.message}\\n\`);
    continue;
  }
  await new Promise((resolve) => setTimeout(resolve, 400));
  await release();
  process.stdout.write('won\\n');
}
`;

/** A racer process, and the next line it says. */
function spawnRacer(script: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script]);
  return { child, next: nextLineOf(child) };
}

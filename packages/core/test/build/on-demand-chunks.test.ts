import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error scripts/ is plain JS without declarations
import { bundleProgram } from '../../../../scripts/size/split-bundle.mjs';
import { startHttpServers } from '../../../../test-servers/http/serve.mjs';
import { repoPath, requireBuilt } from './built-files.js';

interface Outcome {
  readonly code: number | string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly loaded: string[];
}

/** Bundles the fixture as an app's production build would, and runs it in Node against real servers. */
async function runBundled(base: string): Promise<Outcome & { readonly chunks: string[] }> {
  const bundle = await bundleProgram(repoPath('packages/core/test/build/fixtures/every-feature.ts'));
  const dir = await mkdtemp(join(tmpdir(), 'mcp-on-demand-'));
  try {
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    for (const chunk of bundle.chunks) await writeFile(join(dir, chunk.file), chunk.contents);
    const log = join(dir, 'loads');
    await writeFile(log, '');
    const runner = repoPath('scripts/size/run-program.mjs');
    const outcome = await new Promise<Omit<Outcome, 'loaded'>>((resolve) => {
      const child = spawn(process.execPath, [runner, join(dir, bundle.entry), base, log], { stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (data) => {
        stdout += data;
      });
      child.stderr.on('data', (data) => {
        stderr += data;
      });
      child.on('close', (code, signal) => resolve({ code: code ?? signal, stdout, stderr }));
    });
    const loaded = (await readFile(log, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('file:') && fileURLToPath(line).startsWith(dir))
      .map((line) => basename(fileURLToPath(line)));
    return { ...outcome, loaded, chunks: bundle.chunks.map((chunk: { file: string }) => chunk.file) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('features loaded on demand, from the built package bundled by an app', () => {
  let servers: { modes: string; close: () => Promise<void> };
  beforeAll(async () => {
    requireBuilt('packages/core/dist/index.js');
    servers = await startHttpServers();
  });
  afterAll(() => servers?.close());

  it('every on-demand chunk loads and works: handlers, input rounds, listen, resources, prompts, headers, output validation, fallback', async () => {
    const outcome = await runBundled(servers.modes);
    expect(outcome.stderr, outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const report = JSON.parse(JSON.parse(outcome.stdout).text);
    const works = {
      listed: true,
      elicit: true,
      sample: true,
      roots: true,
      read: 'string',
      prompt: true,
      listen: true,
      validated: { sum: 3 },
    };
    expect(report).toEqual({
      legacy: { era: 'legacy', ...works },
      modern: { era: 'modern', ...works },
      fallback: 'old transport',
      headerSent: true,
    });
    // The program really went through split chunks, each loaded when its feature was first used.
    expect(outcome.chunks.length).toBeGreaterThan(5);
    for (const feature of [
      // The client's: answering the server (handlers, input rounds, listen), the catalogue (resources,
      // prompts, completion), the x-mcp-header rules, and output validation (a listed outputSchema).
      'answering',
      'catalogue',
      'x-mcp-header',
      'output-validation',
      // The transport's three: the GET stream is in recovery/, SSE reading in event-stream/, and the HTTP+SSE
      // fallback in legacy-sse-session.ts.
      'recovery',
      'event-stream',
      'legacy-sse-session',
    ]) {
      expect(
        outcome.loaded.some((file) => file.startsWith(`${feature}-`)),
        feature,
      ).toBe(true);
    }
  }, 60_000);
});

import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';
import { expectWebClean } from './web-clean.js';

const run = promisify(execFile);
const ENTRIES = ['index', 'browser', 'protocol', 'skills', 'transport', 'connections', 'apps'] as const;
const load = (file: string) => import(pathToFileURL(repoPath(`packages/core/dist/${file}`)).href);

/** A program an app without a bundler writes, type-checked with strict settings against the published types. */
const CONSUMER = `
import { AuthError, type AuthorizeHandler, Client, McpError, StreamableHttpTransport } from '@mcp/core/bundle';
import { assertBrowsable, popupAuthorize, redirectAuthorize } from '@mcp/core/bundle/browser';
import { LATEST_PROTOCOL_VERSION } from '@mcp/core/bundle/protocol';
import { MessageQueue } from '@mcp/core/bundle/transport';
import { listSkills } from '@mcp/core/bundle/skills';
import * as byPath from '../../dist/core.bundle.js';

export const client: Client = new Client(new StreamableHttpTransport('https://example.com/mcp'));
export const authorize: AuthorizeHandler = popupAuthorize();
export const alsoByPath: byPath.Client = client;
export const handler = redirectAuthorize();
export const version: string = LATEST_PROTOCOL_VERSION;
export const queue = new MessageQueue<number>();
export const skills: typeof listSkills = listSkills;
export function kind(error: unknown): string {
  if (error instanceof AuthError) return error.code;
  return error instanceof McpError ? error.message : 'other';
}
// @ts-expect-error the helpers are typed: a string is not a URL
assertBrowsable('https://example.com');
`;

describe('the no-bundler build (dist/bundle, @mcp/core/bundle/*)', () => {
  const dir = repoPath(`packages/core/.tmp/no-bundler-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has every entry, self-contained and web-clean: no bare specifier for a resolver, no Node built-in, no eval', () => {
    requireBuilt(...ENTRIES.map((entry) => `packages/core/dist/bundle/${entry}.js`));
    const files = readdirSync(repoPath('packages/core/dist/bundle'), { recursive: true, encoding: 'utf8' });
    const code = files.filter((file) => file.endsWith('.js'));
    expect(code.length).toBeGreaterThan(ENTRIES.length);
    for (const file of code) {
      const text = readFileSync(repoPath(`packages/core/dist/bundle/${file}`), 'utf8');
      expect(text, file).not.toMatch(/\b(?:from|import)\s*\(?\s*["'](?![./])[^"']+["']/);
      expectWebClean(text, file);
    }
  });

  it('loads the browser helpers beside core with one copy of the error classes: instanceof holds across entries', async () => {
    requireBuilt('packages/core/dist/bundle/index.js', 'packages/core/dist/bundle/browser.js');
    const core = await load('bundle/index.js');
    const browser = await load('bundle/browser.js');
    const legacy = await load('core.bundle.js');
    let thrown: unknown;
    try {
      browser.assertBrowsable(new URL('http://sign-in.example/authorize'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(core.AuthError);
    expect(thrown).toBeInstanceOf(core.McpError);
    expect((thrown as { code: string }).code).toBe('insecure_endpoint');
    // dist/core.bundle.js, the build's first name, is the same module graph, not a second copy.
    expect(legacy.AuthError).toBe(core.AuthError);
    expect(legacy.Client).toBe(core.Client);
    const transport = await load('bundle/transport.js');
    // The transport entry's toErrorObject knows core's RpcError: one copy of the classes there too.
    expect(transport.toErrorObject(new core.RpcError(-32001, 'refused'))).toEqual({ code: -32001, message: 'refused' });
    expect(transport.MessageQueue).toBeTypeOf('function');
    expect(core.MessageQueue).toBeUndefined();
  });

  it('is typed: a strict TypeScript program importing every entry (and dist/core.bundle.js by path) checks', async () => {
    requireBuilt(
      ...ENTRIES.map((entry) => `packages/core/dist/bundle/${entry}.d.ts`),
      'packages/core/dist/core.bundle.d.ts',
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'preserve',
          moduleResolution: 'bundler',
          lib: ['ES2022', 'ESNext.Disposable', 'DOM'],
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          types: [],
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = repoPath('node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { timeout: 60_000 }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 90_000);
});

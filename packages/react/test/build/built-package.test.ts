import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The built @mcp/react as an app installs it: dist/ and package.json in the app's
// node_modules beside @mcp/core and the app's own React (18 or 19), laid out in
// .tmp/ as npm would. The entry must open with 'use client', render on the server
// in plain Node, and type-check in a TSX app.

const repo = (path: string) => new URL(`../../../../${path}`, import.meta.url).pathname;
const app = repo('.tmp/react-built-package');
const run = promisify(execFile);

const REACTS = {
  18: 'packages/react/test/react18/node_modules',
  19: 'packages/react/node_modules',
} as const;

/** An app folder whose node_modules holds the built @mcp/react, @mcp/core and React `major`. */
function layOut(major: keyof typeof REACTS): string {
  if (!existsSync(repo('packages/react/dist/index.js'))) {
    throw new Error('built output missing: packages/react/dist. Run `pnpm build` first.');
  }
  const root = `${app}/react${major}`;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(`${root}/node_modules/@mcp/react`, { recursive: true });
  mkdirSync(`${root}/node_modules/@types`, { recursive: true });
  cpSync(repo('packages/react/package.json'), `${root}/node_modules/@mcp/react/package.json`);
  cpSync(repo('packages/react/dist'), `${root}/node_modules/@mcp/react/dist`, { recursive: true });
  symlinkSync(repo('packages/core'), `${root}/node_modules/@mcp/core`);
  for (const name of ['react', 'react-dom']) {
    symlinkSync(realpathSync(repo(`${REACTS[major]}/${name}`)), `${root}/node_modules/${name}`);
    symlinkSync(
      realpathSync(repo(`packages/react/node_modules/@types/${name}`)),
      `${root}/node_modules/@types/${name}`,
    );
  }
  return root;
}

const SERVER_RENDER = `
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { McpProvider, useMcp, useMcpServers } from '@mcp/react';

function Status() {
  const notes = useMcp('notes');
  const { servers } = useMcpServers();
  return h('p', null, notes.status + ' ' + notes.tools.length + ' ' + servers.length);
}
const configs = [{ name: 'notes', url: 'http://127.0.0.1:9/mcp' }];
process.stdout.write(renderToString(h(McpProvider, { configs }, h(Status))));
`;

const APP_TSX = `
import { McpProvider, useMcp } from '@mcp/react';
import type { ToolResult } from '@mcp/core';
import { useState } from 'react';

function Echo() {
  const notes = useMcp('notes');
  const [result, setResult] = useState<ToolResult>();
  if (notes.status !== 'ready') return <p>{notes.status}</p>;
  return <button onClick={async () => setResult(await notes.callTool('echo', { text: 'hi' }))}>{result?.text}</button>;
}

export function App() {
  return (
    <McpProvider configs={[{ name: 'notes', url: 'https://example.com/mcp' }]}>
      <Echo />
      {/* @ts-expect-error a provider takes the app's set or configs, not a string */}
      <McpProvider servers="notes" />
    </McpProvider>
  );
}
`;

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the built @mcp/react', () => {
  it("opens its entry with the 'use client' directive", () => {
    const built = readFileSync(repo('packages/react/dist/index.js'), 'utf8');
    expect(built.split('\n')[0]).toBe("'use client';");
  });

  it.each([18, 19] as const)('renders idle on the server in plain Node with React %i', async (major) => {
    const root = layOut(major);
    writeFileSync(`${root}/render.mjs`, SERVER_RENDER);
    const { stdout } = await run(process.execPath, [`${root}/render.mjs`], { cwd: root });
    expect(stdout).toBe('<p>idle 0 0</p>');
  });

  it('type-checks in a TSX app, the misuse refused', async () => {
    const root = layOut(19);
    writeFileSync(`${root}/app.tsx`, APP_TSX);
    writeFileSync(
      `${root}/tsconfig.json`,
      JSON.stringify({
        extends: repo('tsconfig.base.json'),
        compilerOptions: { lib: ['ES2022', 'ESNext.Disposable', 'DOM'], types: [], jsx: 'react-jsx' },
        files: ['app.tsx'],
      }),
    );
    const tsc = repo('node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '--noEmit', '-p', `${root}/tsconfig.json`]).then(
      () => '',
      (error: { stdout?: string }) => String(error.stdout ?? error),
    );
    expect(checked).toBe('');
  });
});

import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The published types in an app's own install, once with ai 6 and once with
// ai 7: `ai` is a peer, so dist/index.d.ts must name the app's `ToolSet`,
// whichever major it is. (Inside this workspace the package's own devDependency,
// ai 6, would answer instead, so the app is laid out in .tmp/ as npm would.)

const repo = (path: string) => new URL(`../../../${path}`, import.meta.url).pathname;
const app = repo('.tmp/ai-sdk-consumer-types');

const appCode = (mock: string) => `
import { mcpToolSet, watchMcpToolSet, type McpToolSetWatcher } from '@mcp/ai-sdk';
import type { Client } from '@mcp/core';
import { generateText, stepCountIs, streamText } from 'ai';
import { ${mock} } from 'ai/test';

declare const client: Client;
const tools = await mcpToolSet({ a: client, b: client }, { callOptions: (call) => ({ timeout: call.mcp.tool.length }) });
await generateText({ model: new ${mock}(), tools, prompt: 'go', stopWhen: stepCountIs(2) });
const watcher: McpToolSetWatcher = await watchMcpToolSet(client, { prefix: 'x' });
streamText({ model: new ${mock}(), tools: watcher.tools, prompt: 'go' });
// @ts-expect-error a string is not a ToolSet
await generateText({ model: new ${mock}(), tools: 'no', prompt: 'go' });
`;

/** An app folder whose node_modules holds the built @mcp/ai-sdk, @mcp/core and the given `ai`. */
function layOut(name: string, ai: string, mock: string): string {
  if (!existsSync(repo('packages/ai-sdk/dist/index.d.ts'))) {
    throw new Error('built output missing: packages/ai-sdk/dist. Run `pnpm build` first.');
  }
  const root = `${app}/${name}`;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(`${root}/node_modules/@mcp/ai-sdk`, { recursive: true });
  cpSync(repo('packages/ai-sdk/package.json'), `${root}/node_modules/@mcp/ai-sdk/package.json`);
  cpSync(repo('packages/ai-sdk/dist'), `${root}/node_modules/@mcp/ai-sdk/dist`, { recursive: true });
  symlinkSync(repo('packages/core'), `${root}/node_modules/@mcp/core`);
  symlinkSync(realpathSync(repo(ai)), `${root}/node_modules/ai`);
  writeFileSync(`${root}/app.ts`, appCode(mock));
  writeFileSync(
    `${root}/tsconfig.json`,
    JSON.stringify({
      extends: repo('tsconfig.base.json'),
      compilerOptions: { lib: ['ES2022', 'ESNext.Disposable', 'DOM'], types: [] },
      files: ['app.ts'],
    }),
  );
  return root;
}

async function typecheck(root: string): Promise<string> {
  const tsc = repo('node_modules/typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', `${root}/tsconfig.json`]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the published types in an app', () => {
  it('type-check against ai 6', async () => {
    expect(await typecheck(layOut('ai6', 'packages/ai-sdk/node_modules/ai', 'MockLanguageModelV3'))).toBe('');
  });

  it('type-check against ai 7', async () => {
    expect(await typecheck(layOut('ai7', 'packages/ai-sdk/test/ai7/node_modules/ai', 'MockLanguageModelV4'))).toBe('');
  });
});

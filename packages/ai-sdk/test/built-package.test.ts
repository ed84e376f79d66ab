import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type * as AiSdk from '../src/index.js';
import { type ReferencePeer, referencePeer } from './reference-peer.js';
import { runLoop, scriptedModel, toolResultsIn } from './scripted-model.js';

// What `pnpm --filter @mcp/ai-sdk build` publishes: dist/index.js with `ai`
// (the app's peer) and @mcp/core left as imports, and its declarations.

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

/** Fails (never skips) when the build is missing: npm test builds before vitest. */
function readBuilt(file: string): string {
  if (!existsSync(dist(file))) throw new Error(`built output missing: dist/${file}. Run \`pnpm build\` first.`);
  return readFileSync(dist(file), 'utf8');
}

/** Every module specifier a file imports or re-exports. */
const specifiers = (code: string) => new Set([...code.matchAll(/\bfrom\s*['"]([^'"]+)['"]/g)].map((match) => match[1]));

let started: ReferencePeer | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

describe('the built @mcp/ai-sdk', () => {
  it('imports only ai and @mcp/core (its connections subpath for the naming rules, its transport subpath for the one timer clamp), and declares the public API', () => {
    expect(specifiers(readBuilt('index.js'))).toEqual(
      new Set(['@mcp/core', '@mcp/core/connections', '@mcp/core/transport', 'ai']),
    );
    const declarations = readBuilt('index.d.ts');
    expect(specifiers(declarations)).toEqual(new Set(['@mcp/core', '@mcp/core/connections', 'ai']));
    for (const name of ['mcpToolSet', 'watchMcpToolSet', 'McpToolSetOptions', 'McpToolSetWatcher', 'McpToolSource']) {
      expect(declarations).toContain(name);
    }
  });

  it("runs a tool call in the app's ai loop", async () => {
    readBuilt('index.js');
    const built = (await import(/* @vite-ignore */ dist('index.js'))) as typeof AiSdk;
    started = await referencePeer();
    const { model, prompts } = scriptedModel([{ calls: [{ toolName: 'echo', input: { text: 'built' } }] }]);
    await runLoop('generateText', model, await built.mcpToolSet(started.client));
    expect(toolResultsIn(prompts[1])).toEqual([
      { toolName: 'echo', output: { type: 'content', value: [{ type: 'text', text: 'built' }] } },
    ]);
  });
});

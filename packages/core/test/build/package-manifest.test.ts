import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

interface Manifest {
  name: string;
  sideEffects?: unknown;
  files?: unknown;
  engines?: { node?: string };
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
}

const manifest = (pkg: string): Manifest => JSON.parse(readFileSync(repoPath(`packages/${pkg}/package.json`), 'utf8'));

describe.each(['core', 'node-stdio'])('packages/%s/package.json', (pkg) => {
  const json = manifest(pkg);

  it('publishes only dist, is free of side effects and needs Node 20.19 (require of ESM)', () => {
    expect(json.sideEffects).toBe(false);
    expect(json.files).toEqual(['dist']);
    expect(json.engines?.node).toBe('>=20.19');
  });

  it('lists types first in every export condition map, and every target exists after the build', () => {
    for (const [subpath, target] of Object.entries(json.exports)) {
      if (typeof target === 'string') {
        expect(existsSync(repoPath(`packages/${pkg}/${target}`)), `${subpath} -> ${target}`).toBe(true);
        continue;
      }
      expect(Object.keys(target)[0], `exports["${subpath}"]`).toBe('types');
      const files = Object.values(target).map((file) => `packages/${pkg}/${file.replace(/^\.\//, '')}`);
      requireBuilt(...files);
    }
  });
});

describe('built entry points', () => {
  it('core has JS and declarations for ".", "./protocol" and "./transport", plus the no-bundler build', () => {
    requireBuilt(
      'packages/core/dist/index.js',
      'packages/core/dist/index.d.ts',
      'packages/core/dist/protocol.js',
      'packages/core/dist/protocol.d.ts',
      'packages/core/dist/transport.js',
      'packages/core/dist/transport.d.ts',
      'packages/core/dist/bundle/index.js',
      'packages/core/dist/bundle/index.d.ts',
      'packages/core/dist/core.bundle.js',
      'packages/core/dist/core.bundle.d.ts',
    );
  });

  it('core exports every entry twice: for bundlers and Node, and as the no-bundler build under ./bundle', () => {
    const json = manifest('core');
    const entries = ['.', './protocol', './browser', './skills', './transport', './connections', './apps'];
    const bundled = entries.map((entry) => (entry === '.' ? './bundle' : `./bundle/${entry.slice(2)}`));
    const files = ['./apps/sandbox-proxy.html', './package.json'];
    expect(Object.keys(json.exports).sort()).toEqual([...entries, ...bundled, ...files].sort());
  });

  it('core ships the MCP Apps sandbox proxy as one static page, its script inlined and not configured for any host', () => {
    const json = manifest('core');
    expect(json.exports['./apps/sandbox-proxy.html']).toBe('./dist/apps/sandbox-proxy.html');
    requireBuilt('packages/core/dist/apps/sandbox-proxy.html');
    const html = readFileSync(repoPath('packages/core/dist/apps/sandbox-proxy.html'), 'utf8');
    expect(html).toContain('<meta name="mcp-host-origins" content="" />');
    expect(html).toContain('ui/notifications/sandbox-proxy-ready');
    // One file: nothing to fetch from wherever it is hosted.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|\bimport\s*\(|\bimport\s*[{*"']/);
    expect(readdirSync(repoPath('packages/core/dist/apps'))).toEqual(['sandbox-proxy.html']);
  });

  it('node-stdio ships the mcp command with a node shebang', () => {
    const json = manifest('node-stdio');
    expect(json.bin).toEqual({ mcp: './dist/cli.js' });
    requireBuilt(
      'packages/node-stdio/dist/index.js',
      'packages/node-stdio/dist/index.d.ts',
      'packages/node-stdio/dist/cli.js',
    );
    const cli = readFileSync(repoPath('packages/node-stdio/dist/cli.js'), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(cli.indexOf('#!', 1)).toBe(-1);
  });

  it('declarations export the public names', () => {
    requireBuilt('packages/core/dist/index.d.ts', 'packages/node-stdio/dist/index.d.ts');
    const core = readFileSync(repoPath('packages/core/dist/index.d.ts'), 'utf8');
    const stdio = readFileSync(repoPath('packages/node-stdio/dist/index.d.ts'), 'utf8');
    expect(core).toMatch(/\bClient\b/);
    expect(core).toMatch(/\bMemoryTransport\b/);
    expect(stdio).toMatch(/\bStdioTransport\b/);
  });

  it('"./transport" serves transport authors MessageQueue and isLoopback, which the main entry no longer has, in both builds', async () => {
    const builds = [
      ['packages/core/dist/transport.js', 'packages/core/dist/index.js'],
      ['packages/core/dist/bundle/transport.js', 'packages/core/dist/bundle/index.js'],
    ];
    requireBuilt(...builds.flat(), 'packages/core/dist/transport.d.ts');
    for (const [subpath, main] of builds as [string, string][]) {
      const transport = await import(repoPath(subpath));
      const core = await import(repoPath(main));
      expect(Object.keys(transport).sort(), subpath).toEqual([
        'MAX_TIMER',
        'MessageQueue',
        'excerpt',
        'isLoopback',
        'isRequestId',
        'jsonExcerpt',
        'messageOf',
        'timerDelay',
        'toErrorObject',
        'transportHooks',
      ]);
      expect(Object.keys(core), subpath).not.toContain('MessageQueue');
      expect(Object.keys(core), subpath).not.toContain('isLoopback');
    }
    const main = readFileSync(repoPath('packages/core/dist/index.d.ts'), 'utf8');
    expect(main).not.toMatch(/\b(MessageQueue|isLoopback)\b/);
    const types = readFileSync(repoPath('packages/core/dist/transport.d.ts'), 'utf8');
    for (const name of [
      'Transport',
      'TransportHooks',
      'TransportEvent',
      'SendOptions',
      'SessionInfo',
      'AuthProvider',
      'AuthRequest',
    ]) {
      expect(types, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('the main entry exports ErrorCode as a value and Subscription as a type only', async () => {
    requireBuilt('packages/core/dist/index.js', 'packages/core/dist/index.d.ts');
    const core = await import(repoPath('packages/core/dist/index.js'));
    expect(core.ErrorCode.MethodNotFound).toBe(-32601);
    expect('Subscription' in core).toBe(false);
    const types = readFileSync(repoPath('packages/core/dist/index.d.ts'), 'utf8');
    for (const name of [
      'Subscription',
      'ErrorCode',
      'CreateMessageRequestParams',
      'ElicitResult',
      'SessionExpiredError',
    ]) {
      expect(types, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('published declarations carry no @internal member (what the Client calls on a Subscription)', () => {
    requireBuilt('packages/core/dist/index.d.ts');
    const dir = repoPath('packages/core/dist');
    const declarations = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.d.ts'),
    );
    const subscription = declarations
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .find((text) => text.includes('declare class Subscription '));
    expect(subscription).toBeDefined();
    const declared = subscription?.slice(subscription.indexOf('declare class Subscription '));
    const body = declared?.slice(0, declared.indexOf('\n}\n'));
    expect(body).toMatch(/\bclose\(\): Promise<void>/);
    expect(body).not.toMatch(/\b(deliver|acknowledge|end)\(/);
    expect(body).not.toMatch(/constructor\(/);
    // The no-bundler build's declarations inline valibot's, which mark valibot's own internals.
    for (const file of declarations.filter((name) => !name.startsWith('bundle/'))) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toContain('@internal');
    }
  });
});

describe('the files of each core build', () => {
  /** The relative static imports of every .js file under `dir`, by path from `dir`. */
  function staticImports(dir: string): Map<string, string[]> {
    const graph = new Map<string, string[]>();
    const files = readdirSync(repoPath(dir), { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.js') && !(dir === 'packages/core/dist' && file.startsWith('bundle/')),
    );
    for (const file of files) {
      const text = readFileSync(repoPath(`${dir}/${file}`), 'utf8');
      const targets = [
        ...text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"();]*?\bfrom\s*)?['"](\.[^'"]+)['"]/g),
      ].map(([, target]) => join(file, '..', target as string));
      graph.set(file, targets);
    }
    return graph;
  }

  it.each(['packages/core/dist', 'packages/core/dist/bundle'])(
    'import each other in one direction only (no cycle, which breaks a subclass evaluated first): %s',
    (dir) => {
      requireBuilt(`${dir}/index.js`);
      const graph = staticImports(dir);
      expect([...graph.values()].flat().length).toBeGreaterThan(graph.size);
      const done = new Set<string>();
      const cycle = (file: string, path: string[]): string[] | undefined => {
        if (path.includes(file)) return [...path, file];
        if (done.has(file)) return undefined;
        for (const next of graph.get(file) ?? []) {
          const found = cycle(next, [...path, file]);
          if (found) return found;
        }
        done.add(file);
        return undefined;
      };
      for (const file of graph.keys()) expect(cycle(file, [])).toBeUndefined();
    },
  );
});

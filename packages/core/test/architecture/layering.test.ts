import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every module under src/, by its path relative to src/ (e.g. `client/client.ts`). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/**
 * Relative specifiers a module names: `import … from`, `import type … from`, `export … from`, bare `import '…'`
 * and dynamic `import('…')` (a lazy-loaded module is still a dependency; a type-only one still ties the files).
 * Comments are read too: stripping them with a regex could swallow code after a `/*` inside a string, while an
 * import written in a comment can only make the check stricter.
 */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g)].map(
    (match) => match[1] as string,
  );
}

/** The module a specifier names, relative to src/: `./x.js` is `x.ts`, a folder is its `index.ts`. */
function target(from: string, specifier: string): string {
  const base = resolve(SRC, dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return relative(SRC, candidate);
  }
  throw new Error(`${from} imports ${specifier}, which names no module under src/`);
}

const graph = new Map<string, string[]>(
  sourceFiles().map((file) => [
    file,
    specifiers(readFileSync(join(SRC, file), 'utf8')).map((specifier) => target(file, specifier)),
  ]),
);

/** Strongly connected components (Tarjan): a component of more than one module, or a self-import, is a cycle. */
function cycles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const dep of graph.get(node) ?? []) {
      if (!index.has(dep)) {
        visit(dep);
        low.set(node, Math.min(low.get(node) as number, low.get(dep) as number));
      } else if (onStack.has(dep)) {
        low.set(node, Math.min(low.get(node) as number, index.get(dep) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.map(closedPath);
}

/** One concrete path through a component that comes back to its start (`a → b → a`), to print. */
function closedPath(component: string[]): string[] {
  const start = component[0] as string;
  const members = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (const node of queue) {
    for (const dep of graph.get(node) ?? []) {
      if (!members.has(dep)) continue;
      if (dep === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at) as string) path.unshift(at);
        return [start, ...path];
      }
      if (!cameFrom.has(dep)) {
        cameFrom.set(dep, node);
        queue.push(dep);
      }
    }
  }
  return component;
}

/** Imports from a folder into folders it must not know, as `from → to` lines (empty when the rule holds). */
function crossings(from: string, forbidden: readonly string[]): string[] {
  return [...graph].flatMap(([file, deps]) =>
    file.startsWith(from)
      ? deps.filter((dep) => forbidden.some((folder) => dep.startsWith(folder))).map((dep) => `${file} → ${dep}`)
      : [],
  );
}

/** Imports from a folder into `within` other than the modules of `allowed`, as `from → to` lines. */
function reachesPast(from: string, within: string, allowed: readonly string[]): string[] {
  return [...graph].flatMap(([file, deps]) =>
    file.startsWith(from)
      ? deps
          .filter((dep) => dep.startsWith(within) && !allowed.some((module) => dep.startsWith(module)))
          .map((dep) => `${file} → ${dep}`)
      : [],
  );
}

describe('layering of packages/core/src', () => {
  it('reads the module graph (sanity: the client imports its transport contract)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('client/client.ts')).toContain('transport/transport.ts');
    expect(graph.get('client/session.ts')).toContain('client/rpc/rpc-channel.ts');
  });

  it('has no import cycles, counting type-only and dynamic imports', () => {
    expect(cycles().map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('errors/ imports nothing from client/, transport/ or auth/', () => {
    expect(crossings('errors/', ['client/', 'transport/', 'auth/'])).toEqual([]);
  });

  it('transport/ imports nothing from auth/ or client/ (auth comes in as the AuthProvider contract)', () => {
    expect(crossings('transport/', ['auth/', 'client/'])).toEqual([]);
  });

  it('protocol/ imports nothing from client/, transport/ or auth/', () => {
    expect(crossings('protocol/', ['client/', 'transport/', 'auth/'])).toEqual([]);
  });

  it('protocol/ imports nothing from errors/ (the wire schemas stand alone; errors/ may read protocol/ types)', () => {
    expect(crossings('protocol/', ['errors/'])).toEqual([]);
  });

  it('auth/ imports nothing from client/', () => {
    expect(crossings('auth/', ['client/'])).toEqual([]);
  });

  it('auth/ does not reach into transport/http/ (only the transport/*.ts contracts and util/)', () => {
    expect(crossings('auth/', ['transport/http/'])).toEqual([]);
  });

  it('util/ imports nothing from client/, transport/, auth/ or protocol/ (web-standard helpers; errors/ at most)', () => {
    expect(crossings('util/', ['client/', 'transport/', 'auth/', 'protocol/'])).toEqual([]);
  });

  it('client/ does not reach into transport/http/ (only the transport/*.ts contracts and util/)', () => {
    expect(crossings('client/', ['transport/http/'])).toEqual([]);
  });

  it('client/rpc/, the JSON-RPC core, knows nothing of the client above it but its options', () => {
    expect(reachesPast('client/rpc/', 'client/', ['client/rpc/', 'client/options.ts'])).toEqual([]);
  });

  it('client/eras/ reach the Session only through EraHost, never session.ts or client.ts', () => {
    expect(crossings('client/eras/', ['client/session.ts', 'client/client.ts'])).toEqual([]);
  });

  it('connections/ is a layer above: the main entry and what it is built on import nothing of it, auth/ only MemoryStore', () => {
    const below = ['index.ts', 'client/', 'transport/', 'protocol/', 'errors/', 'util/', 'ai/', 'skills/'];
    expect(below.flatMap((folder) => crossings(folder, ['connections/']))).toEqual([]);
    expect(reachesPast('auth/', 'connections/', ['connections/stores/memory-store.ts'])).toEqual([]);
  });

  it('client/listen/ knows the channel, not the answering module that loads it, the eras or the Session', () => {
    expect(
      crossings('client/listen/', ['client/answering/', 'client/eras/', 'client/session.ts', 'client/client.ts']),
    ).toEqual([]);
  });
});

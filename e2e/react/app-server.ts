/**
 * The React test app (app.tsx) on an origin of its own, as a site would serve it: one esbuild bundle per
 * React major, each holding that React, react-dom and @mcp/react's built `dist` (which imports `react`
 * bare, so it is bundled with the React it runs on), while `@mcp/core/*` stays a real module import of
 * the built `packages/core/dist/bundle/*`, served beside it, so the app and @mcp/react share one copy.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The React majors the specs run on. */
export const REACT_VERSIONS = ['18', '19'] as const;
export type ReactVersion = (typeof REACT_VERSIONS)[number];

/**
 * Where each major's `react` and `react-dom` resolve from: React 19 is packages/react's devDependency;
 * React 18 has a workspace of its own (packages/react/test/react18), so react-dom 18 gets React 18.
 */
const REACT_HOME: Record<ReactVersion, string> = {
  '18': fileURLToPath(new URL('../../packages/react/test/react18/', import.meta.url)),
  '19': fileURLToPath(new URL('../../packages/react/', import.meta.url)),
};

const root = fileURLToPath(new URL('../../', import.meta.url));
/** @mcp/react as published: its `exports` default. */
const MCP_REACT = fileURLToPath(new URL('../../packages/react/dist/index.js', import.meta.url));
const CORE_BUNDLE = '/packages/core/dist/bundle/';
/** Marks the plugin's own resolution of a React package, so it is not rewritten again. */
const RESOLVING = Symbol('resolving');

/** What a page needs to know of a React app server. */
export interface AppServer {
  /** The app's origin. */
  readonly origin: string;
  /** The OAuth callback page on that origin (a popup's redirect URI, or a plain link's landing). */
  readonly callback: string;
  /** The app page for `react`, rendering `setup`. */
  url(react: ReactVersion, setup: unknown): string;
  close(): Promise<void>;
}

/**
 * `@mcp/core` and its subpaths as URLs on the app's origin, left as imports; `react` and `react-dom`
 * (and their subpaths) as the packages of `version`, bundled.
 */
function resolvePlugin(version: ReactVersion): Plugin {
  return {
    name: 'react-test-app',
    setup(builder) {
      builder.onResolve({ filter: /^@mcp\/core(\/[a-z-]+)?$/ }, ({ path }) => ({
        path: `${CORE_BUNDLE}${path.split('/')[2] ?? 'index'}.js`,
        external: true,
      }));
      builder.onResolve({ filter: /^@mcp\/react$/ }, () => ({ path: MCP_REACT }));
      // Every `react` import, react-dom's and @mcp/react's included, is the major under test.
      builder.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, ({ path, kind, pluginData }) => {
        if (pluginData === RESOLVING) return undefined;
        return builder.resolve(path, { kind, resolveDir: REACT_HOME[version], pluginData: RESOLVING });
      });
    },
  };
}

async function bundle(version: ReactVersion): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./app.tsx', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    // Development React: StrictMode mounts, unmounts and mounts again only there.
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [resolvePlugin(version)],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

const page = (version: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>@mcp/react on React ${version}</title></head>
  <body><div id="root"></div><script type="module" src="/app-${version}.js"></script></body>
</html>
`;

/** Builds both bundles (once per Playwright worker) and serves them, with the core bundles, on 127.0.0.1. */
export async function startAppServer(): Promise<AppServer> {
  bundles ??= Promise.all(REACT_VERSIONS.map(bundle));
  const built = Object.fromEntries((await bundles).map((code, index) => [REACT_VERSIONS[index], code]));
  const server = createServer(async (request, response) => {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://app');
    const send = (type: string, body: string | Buffer) =>
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const script = /^\/app-(\d+)\.js$/.exec(pathname)?.[1];
    if (pathname === '/app.html') return send('text/html; charset=utf-8', page(searchParams.get('react') ?? ''));
    if (script !== undefined && built[script] !== undefined) return send('text/javascript', built[script]);
    // The example's callback page: it imports /packages/core/dist/bundle/browser.js, served below.
    if (pathname === '/callback.html') {
      return send('text/html; charset=utf-8', await readFile(`${root}examples/oauth-browser/callback.html`));
    }
    const file = normalize(`${root}${pathname}`);
    if (pathname.startsWith(CORE_BUNDLE) && pathname.endsWith('.js') && file.startsWith(`${root}packages${sep}`)) {
      const code = await readFile(file).catch(() => undefined);
      if (code) return send('text/javascript', code);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    callback: `${origin}/callback.html`,
    url: (react, setup) => `${origin}/app.html?${new URLSearchParams({ react, setup: JSON.stringify(setup) })}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let bundles: Promise<string[]> | undefined;

import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'vite';

/** The sandbox proxy page as @mcp/core builds it. */
const PROXY_PAGE = new URL('./node_modules/@mcp/core/dist/apps/sandbox-proxy.html', import.meta.url);
const HOST_ORIGINS = /<meta name="mcp-host-origins" content="[^"]*"\s*\/?>/;

/**
 * Serves `sandbox-proxy.html` on the app's port + 1 beside `vite dev` and
 * `vite preview`: another origin, as MCP Apps requires, with the app's own
 * origins written into its `<meta name="mcp-host-origins">` so only this app
 * may embed it. Development only: in production a static host of its own
 * serves the page (README, "MCP Apps views").
 */
export function sandboxOrigin(): Plugin {
  const beside = (app: Server | null) => {
    if (!app) return;
    let sandbox: Server | undefined;
    const start = () => {
      const { port } = app.address() as AddressInfo;
      sandbox = serveSandbox([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
      sandbox.listen(port + 1, '127.0.0.1');
    };
    if (app.listening) start();
    else app.once('listening', start);
    app.once('close', () => sandbox?.close());
  };
  return {
    name: 'mcp-sandbox-origin',
    configureServer: (server) => beside(server.httpServer as Server | null),
    configurePreviewServer: (server) => beside(server.httpServer as Server | null),
  };
}

function serveSandbox(hostOrigins: readonly string[]): Server {
  return createServer(async (request, response) => {
    if (new URL(request.url ?? '/', 'http://sandbox').pathname !== '/sandbox-proxy.html') {
      response.writeHead(404).end();
      return;
    }
    const page = await readFile(PROXY_PAGE, 'utf8').catch(() => undefined);
    if (page === undefined || !HOST_ORIGINS.test(page)) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('build @mcp/core first: no sandbox-proxy.html');
      return;
    }
    const meta = `<meta name="mcp-host-origins" content="${hostOrigins.join(' ')}" />`;
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(page.replace(HOST_ORIGINS, () => meta));
  });
}

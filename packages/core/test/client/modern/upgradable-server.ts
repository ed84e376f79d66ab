/**
 * One URL whose server changes under the client, as in a deployment that
 * upgrades: first it forwards to a legacy reference server, then it is a
 * 2026-07-28-only server (the v2 reference server behind the official SDK's
 * `createMcpHandler` with `legacy: 'reject'`). Both are real servers; only the
 * switch is ours.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The official v2 server SDK is a dependency of test-servers only, so it is reached through their node_modules.
import { createMcpHandler } from '../../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/index.mjs';
// @ts-expect-error test-servers is plain JS without declarations
import { createModernHub } from '../../../../../test-servers/reference/modern-hub.mjs';
// @ts-expect-error test-servers is plain JS without declarations
import { createV2Server } from '../../../../../test-servers/reference/v2-server.mjs';
import { toNodeListener } from '../../transport/http/test-servers.js';

type Handler = (request: Request) => Promise<Response>;

export interface UpgradableServer {
  readonly url: string;
  /** From now on the URL is served by a 2026-07-28-only server. */
  upgrade(): void;
  close(): Promise<void>;
}

/** Starts the front server, forwarding to `legacyUrl` until `upgrade()`. */
export async function startUpgradableServer(legacyUrl: string): Promise<UpgradableServer> {
  const forward: Handler = async (request) => {
    const body = request.method === 'POST' ? await request.text() : undefined;
    const headers = new Headers(request.headers);
    headers.delete('host');
    return fetch(legacyUrl, { method: request.method, headers, body: body ?? null, signal: request.signal });
  };
  const modern = createMcpHandler(() => createV2Server({}, { era: 'modern', hub: createModernHub({}) }), {
    legacy: 'reject',
  }) as { fetch: Handler; close(): Promise<void> };
  let current: Handler = forward;
  const server: Server = createServer(toNodeListener((request) => current(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    upgrade() {
      current = (request) => modern.fetch(request);
    },
    async close() {
      await modern.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

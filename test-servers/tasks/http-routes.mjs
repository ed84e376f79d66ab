import { WebStandardStreamableHTTPServerTransport as V1Transport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createSessionEndpoint } from '../http/session-endpoint.mjs';
import { createModernTaskServer } from './modern-task-server.mjs';
import { createModernTaskStore } from './modern-task-store.mjs';
import { createV1TaskServer } from './v1-task-server.mjs';

/**
 * The task servers over Streamable HTTP, as paths of the modes server:
 *
 * - `/tasks-2025`: the 2025-11-25 task server (v1 SDK), sessions and SSE like
 *   `/stateful`; one server, so one task store, per session. Queued task
 *   requests travel on the `tasks/result` POST's SSE stream.
 * - `/tasks-2026`: the 2026-07-28 task server (v2 SDK's `createMcpHandler`, a
 *   fresh server per request): every request to one URL (query string
 *   included) shares one task store. 2025 traffic is refused.
 * @returns {{ routes: Record<string, (request: Request) => Promise<Response>>, close: () => Promise<void> }}
 */
export function createTaskRoutes() {
  const v1 = createSessionEndpoint({ Transport: V1Transport, createServer: () => createV1TaskServer() });
  /** @type {Map<string, ReturnType<typeof createMcpHandler>>} */
  const modern = new Map();

  /** @param {Request} request */
  function serveModern(request) {
    const key = new URL(request.url).search;
    let handler = modern.get(key);
    if (handler === undefined) {
      const store = createModernTaskStore();
      handler = createMcpHandler(() => createModernTaskServer({ era: 'modern', store }), { legacy: 'reject' });
      modern.set(key, handler);
    }
    return handler.fetch(request);
  }

  return {
    routes: { '/tasks-2025': v1.handle, '/tasks-2026': serveModern },
    async close() {
      await Promise.allSettled([v1.close(), ...[...modern.values()].map((handler) => handler.close())]);
    },
  };
}

#!/usr/bin/env node
/**
 * Starts the HTTP test servers: `node test-servers/http/serve.mjs [--port N]
 * [--faults-port N] [--other-port N]` (each 0 = ephemeral, the default) and
 * prints one line of JSON with their base URLs, then runs until killed or
 * until its stdin (when that is a pipe) closes.
 *
 *   {"modes":"http://127.0.0.1:P1","faults":"http://127.0.0.1:P2","other":"http://127.0.0.1:P3","refused":"http://127.0.0.1:P4/mcp"}
 *
 * `modes` serves the reference servers (modes.mjs); `faults` the fault
 * handler; `other` the same fault handler on a second origin, where redirects
 * point; `refused` is a URL where nothing listens.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listenOnLoopback, stopWhenTold } from '../serve-process.mjs';
import { createFaultHandler } from './fault-server.mjs';
import { createModesListener } from './modes.mjs';
import { toNodeListener } from './node-adapter.mjs';
import { refusedUrl } from './refused-url.mjs';

/**
 * @typedef {object} HttpServers
 * @property {string} modes base URL of the modes server (`/stateful`, `/stateless`, …)
 * @property {string} faults base URL of the fault server (`POST /faults`, …)
 * @property {string} other base URL of the fault server's second origin
 * @property {string} refused a URL where nothing listens
 * @property {ReturnType<typeof createFaultHandler>} faultHandler the fault handler itself, for in-process scripting
 * @property {() => Promise<void>} close stops everything
 */

/**
 * Starts the modes server and the fault server (on two origins) on 127.0.0.1.
 * @param {{ port?: number, faultsPort?: number, otherPort?: number }} [options]
 * @returns {Promise<HttpServers>}
 */
export async function startHttpServers({ port = 0, faultsPort = 0, otherPort = 0 } = {}) {
  const modes = createModesListener();
  const faultHandler = createFaultHandler();
  const faultListener = toNodeListener(faultHandler.handler);
  const servers = [createServer(modes.listener), createServer(faultListener), createServer(faultListener)];
  const [modesUrl, faultsUrl, otherUrl] = await Promise.all(
    servers.map((server, index) => listenOnLoopback(server, [port, faultsPort, otherPort][index] ?? 0)),
  );
  faultHandler.otherOrigin = otherUrl;
  return {
    modes: /** @type {string} */ (modesUrl),
    faults: /** @type {string} */ (faultsUrl),
    other: /** @type {string} */ (otherUrl),
    refused: await refusedUrl(),
    faultHandler,
    async close() {
      await Promise.allSettled([modes.close(), faultHandler.close()]);
      // Keep-alive sockets would hold close() open (shared/TOOLCHAIN.md, Deno row).
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'faults-port': { type: 'string', default: '0' },
      'other-port': { type: 'string', default: '0' },
    },
    strict: true,
  });
  const servers = await startHttpServers({
    port: Number(values.port),
    faultsPort: Number(values['faults-port']),
    otherPort: Number(values['other-port']),
  });
  const { modes, faults, other, refused } = servers;
  process.stdout.write(`${JSON.stringify({ modes, faults, other, refused })}\n`);
  stopWhenTold(() => servers.close());
}

#!/usr/bin/env node
/**
 * Starts the OAuth test servers: `node test-servers/auth/serve.mjs [--port N]`
 * (0 = ephemeral, the default) prints one line of JSON and runs until killed
 * or until its stdin (when that is a pipe) closes:
 *
 *   {"control":"http://127.0.0.1:P"}
 *
 * `control` is the control API (auth-control.mjs): `POST /scenarios` makes an
 * authorization server and a protected MCP server, each on its own loopback
 * origin, behaving as the posted config says.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createModesHandler } from '../http/modes.mjs';
import { toNodeListener } from '../http/node-adapter.mjs';
import { listenOnLoopback, stopWhenTold } from '../serve-process.mjs';
import { createAuthControl } from './auth-control.mjs';

/**
 * @typedef {object} AuthServers
 * @property {string} control base URL of the control API
 * @property {(config?: unknown) => Promise<import('./auth-scenario.mjs').AuthScenario>} createScenario in process (throws a TypeError for an invalid config)
 * @property {(name: string, document: unknown) => void} setDocument serves JSON at `<control>/documents/<name>`
 * @property {() => Promise<void>} close stops every scenario and the control listener
 */

/**
 * Starts the control listener on 127.0.0.1; scenarios open their own listeners.
 * @param {{ port?: number }} [options]
 * @returns {Promise<AuthServers>}
 */
export async function startAuthServers({ port = 0 } = {}) {
  const modes = createModesHandler();
  const control = createAuthControl(modes.handler);
  const server = createServer(toNodeListener(control.handler));
  const origin = await listenOnLoopback(server, port);
  return {
    control: /** @type {string} */ (origin),
    createScenario: control.createScenario,
    setDocument: control.setDocument,
    async close() {
      await Promise.allSettled([control.close(), modes.close()]);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } }, strict: true });
  const servers = await startAuthServers({ port: Number(values.port) });
  process.stdout.write(`${JSON.stringify({ control: servers.control })}\n`);
  stopWhenTold(() => servers.close());
}

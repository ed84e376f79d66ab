/**
 * The v1 reference server inside the test's own process, on one end of a
 * linked in-memory pair (e.g. @mcp/core's `MemoryTransport.createPair()`), for
 * tests that want the real server without spawning a child process.
 */

import { SdkTransportAdapter } from './reference/sdk-transport-adapter.mjs';
import { createV1Server } from './reference/v1-server.mjs';

/**
 * One end of a message transport pair, as @mcp/core's MemoryTransport has it
 * (method syntax, so an end typed for JSON-RPC messages fits).
 * @typedef {{
 *   send(message: unknown): Promise<void>,
 *   messages(): AsyncIterable<{ type: 'message', message: unknown } | { type: 'error', error: Error }>,
 *   close(): Promise<void>,
 * }} MessageTransport
 */

/**
 * @typedef {object} InProcessServer
 * @property {() => Promise<void>} close closes the server and its end of the pair
 * @property {Promise<void>} closed settles once the connection has ended, from either side
 */

/**
 * Serves the v1 reference server on `transport` until either side closes.
 * @param {MessageTransport} transport the server's end of the pair
 * @param {import('./reference/v1-server.mjs').ReferenceServerOptions} [options] profile and page size
 * @returns {Promise<InProcessServer>}
 */
export async function serveInProcess(transport, options) {
  const server = createV1Server(options);
  const closed = new Promise((resolve) => {
    server.onclose = () => resolve(undefined);
  });
  await server.connect(new SdkTransportAdapter(transport));
  return { close: () => server.close(), closed };
}

// A TCP cable in front of a server that a test can pull out and plug back, on the same port: the network
// between a client and its server drops and comes back while the server itself stays up.
import { createConnection, createServer } from 'node:net';

/**
 * Starts a cable on 127.0.0.1 to `target` (an origin on 127.0.0.1). `unplug()` resets every connection
 * through it, and each new one until `plug()`.
 * @param {string} target
 */
export async function startCable(target) {
  const targetPort = Number(new URL(target).port);
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  let unplugged = false;
  const server = createServer((socket) => {
    if (unplugged) return void socket.resetAndDestroy();
    const upstream = createConnection(targetPort, '127.0.0.1');
    sockets.add(socket).add(upstream);
    const forget = () => {
      sockets.delete(socket);
      sockets.delete(upstream);
    };
    socket.on('close', forget);
    upstream.on('close', forget);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the cable has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    unplug() {
      unplugged = true;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
    },
    plug() {
      unplugged = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

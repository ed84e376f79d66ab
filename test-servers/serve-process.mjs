// What every test server run as its own process shares: listening on loopback, and stopping when told to.
import { fstatSync } from 'node:fs';

/**
 * Listens on 127.0.0.1 (`port` 0: any free one) and resolves with the origin, `http://127.0.0.1:<port>`.
 * @param {import('node:http').Server} server
 * @param {number} port
 * @returns {Promise<string>}
 */
export function listenOnLoopback(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '');
    });
  });
}

/**
 * Closes (`close`) and exits 0 on SIGTERM, SIGINT, or the end of stdin when stdin is a pipe, so a parent
 * that dies takes the server with it. Only a pipe: a stdin of /dev/null (spawned with stdio 'ignore')
 * ends at once.
 * @param {() => Promise<unknown>} close
 */
export function stopWhenTold(close) {
  const stop = () => void close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const stdin = fstatSync(0);
  if (stdin.isFIFO() || stdin.isSocket()) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
}

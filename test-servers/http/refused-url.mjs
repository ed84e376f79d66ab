import { createServer } from 'node:net';

/**
 * A URL on 127.0.0.1 where nothing listens, for "connection refused": binds an
 * ephemeral port and closes it again. The OS may hand the port out later, so
 * use the URL soon after.
 * @param {string} [path] appended to the origin; default `/mcp`
 * @returns {Promise<string>}
 */
export async function refusedUrl(path = '/mcp') {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}${path}`;
}

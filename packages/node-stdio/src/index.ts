/**
 * `@mcp/node-stdio`: run an MCP server as a child process and talk to it over stdio.
 *
 * @module @mcp/node-stdio
 */

export { FileStore, type FileStoreOptions } from './file-store/file-store.js';
export { type LoopbackAuthorizeOptions, type LoopbackRedirect, loopbackAuthorize } from './loopback-redirect.js';
export type { ExitStatus } from './server-errors.js';
export { StdioTransport, type StdioTransportOptions } from './stdio-transport.js';

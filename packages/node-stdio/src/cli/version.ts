/**
 * The version `mcp --version` prints and the CLI sends as its `clientInfo`.
 * Kept equal to packages/node-stdio/package.json by a test, so the bin needs no
 * file reads at start-up.
 */
export const VERSION = '0.1.0';

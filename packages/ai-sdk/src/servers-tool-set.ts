import type { CatalogueTool, Connection, Servers, ServersSnapshot } from '@mcp/core/connections';
import { ConnectionError } from '@mcp/core/connections';
import type { ToolSet } from 'ai';
import { aiTool } from './ai-tool.js';
import type { McpToolSetOptions } from './mcp-tool-set.js';

/** The options a server set decides for itself, through its own `tools` options. */
const SET_DECIDES = ['prefix', 'maxDescriptionChars', 'maxSchemaBytes'] as const;

/**
 * Whether `source` is a server set. Told by its shape, not `instanceof`, so an
 * app that never makes a set does not bundle the class to compare with.
 */
export function isServers(source: unknown): source is Servers {
  const candidate = source as Partial<Servers> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.getSnapshot === 'function' &&
    typeof candidate.subscribe === 'function' &&
    typeof candidate.tools === 'function'
  );
}

/** A set's tools as a `ToolSet`, and the catalogue's warnings. */
export interface ServersToolSet {
  readonly tools: ToolSet;
  readonly warnings: readonly string[];
}

/**
 * The tools of `servers`' ready servers as the set's catalogue names them.
 * Throws a TypeError for an option the set decides (naming and bounds).
 */
export function serversToolSet(
  servers: Servers,
  options: McpToolSetOptions,
  snapshot: ServersSnapshot = servers.getSnapshot(),
): ServersToolSet {
  for (const option of SET_DECIDES) {
    if (options[option] !== undefined) {
      throw new TypeError(
        `mcpToolSet: a server set names and bounds its tools itself; give ${option} in new Servers({ tools })`,
      );
    }
  }
  const callOptions = options.callOptions ?? {};
  const tools: ToolSet = {};
  for (const entry of snapshot.tools)
    tools[entry.name] = aiTool(() => connectionOf(servers, entry), entry, callOptions);
  return { tools, warnings: snapshot.warnings };
}

/**
 * The connection that serves `entry` when the model calls it: looked up then,
 * since `update()` replaces a server's connection. A server removed since is a
 * `ConnectionError` (`closed`), which the AI SDK records as a failed tool call.
 */
function connectionOf(servers: Servers, entry: CatalogueTool): Connection {
  const connection = servers.get(entry.server);
  if (!connection) throw new ConnectionError('closed', `${entry.server}: no longer in the set`);
  return connection;
}

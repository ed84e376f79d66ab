import type { ServerConfig } from '@mcp/core/connections';

/**
 * What makes a config a different server, as a string for an effect's
 * dependencies: its JSON parts. A config written inline is a new object at
 * every render; this key stays the same. A `transport` function counts only by
 * being there.
 */
export function configKey(config: ServerConfig): string {
  // Not an object: the key still differs from every config's, and making the connection says what is wrong.
  if (typeof config !== 'object' || config === null) return JSON.stringify(String(config));
  const { name, url, headers, oauth, transport } = config;
  return JSON.stringify([name, url === undefined ? null : String(url), headers ?? null, oauth === true, !!transport]);
}

/**
 * The flags every command that reaches a server over HTTP takes (`mcp … --url`
 * and `mcp bridge`): extra headers and a bearer token from an environment
 * variable. The token's value is read only when the connection opens and is
 * never printed: errors name the variable, not what it holds.
 */
import { UsageError } from './usage-error.js';

/** The flags as `parseArgs` declares them. */
export const REMOTE_OPTIONS = {
  header: { type: 'string', multiple: true },
  'token-env': { type: 'string' },
} as const;

/** The flags as `parseArgs` reads them. */
export interface RemoteFlags {
  readonly header?: string[] | undefined;
  readonly 'token-env'?: string | undefined;
}

/** `--header 'Name: value'` pairs; a header name is an RFC 9110 token, a value one line. */
export function headerFlags(pairs: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    const name = colon === -1 ? '' : pair.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header takes "Name: value", got "${pair}"`);
    }
    const value = pair.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value must be one line`);
    result[name] = value;
  }
  return result;
}

/** `--token-env VAR`: the name of a variable, checked as one; its value is read later, by {@link bearerToken}. */
export function tokenEnvFlag(name: string | undefined): string | undefined {
  if (name !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new UsageError(`--token-env takes the name of an environment variable, got "${name}"`);
  }
  return name;
}

/** The token `--token-env` names; an empty or unset variable is a usage error that names it, never a value. */
export function bearerToken(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const token = env[name];
  if (!token) throw new UsageError(`--token-env: the variable ${name} is empty or not set`);
  return token;
}

import { headerFlags, type RemoteFlags, tokenEnvFlag } from '../remote-flags.js';
import { UsageError } from '../usage-error.js';

/** Requests forwarded at once unless `--max-in-flight` says otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 64;
/** A line on stdin may hold this many bytes unless `--max-line-bytes` says: the stdio transport's own limit. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** `mcp bridge <url>`, validated. */
export interface BridgeCommand {
  readonly kind: 'bridge';
  readonly url: URL;
  /** `--header 'Name: value'`, sent on every HTTP request. */
  readonly headers: Readonly<Record<string, string>>;
  /** `--token-env VAR`: a bearer token read from that variable, instead of OAuth. */
  readonly tokenEnv?: string;
  /** `--token-store <dir>`: where OAuth state is kept between runs (default: see `defaultTokenDirectory`). */
  readonly tokenStore?: string;
  /** `--timeout <ms>`: the client's per-request timeout. */
  readonly timeout?: number;
  /** `--max-in-flight <n>`: requests of the local client forwarded at once; past it, refused at once. */
  readonly maxInFlight: number;
  /** `--max-line-bytes <n>`: the longest line read from stdin; a longer one is dropped. */
  readonly maxLineBytes: number;
  /** Bytes waiting unread on stdout past which notifications are dropped (no flag: `DEFAULT_MAX_QUEUED_OUTPUT`; tests lower it). */
  readonly maxQueuedOutput?: number;
}

/** The flags of `mcp bridge` as `parseArgs` reads them. */
export interface BridgeFlags extends RemoteFlags {
  readonly 'token-store'?: string | undefined;
  readonly 'max-in-flight'?: string | undefined;
  readonly 'max-line-bytes'?: string | undefined;
}

/** What every subcommand reads from the command line, which the bridge refuses. */
interface SessionFlags {
  readonly url?: string | undefined;
  readonly env?: string[] | undefined;
  readonly 'inherit-env'?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly quiet?: boolean | undefined;
  readonly 'allow-sampling'?: boolean | undefined;
}

/** The options only `mcp bridge` takes, for the other subcommands to refuse (`--header` and `--token-env` are shared). */
export const BRIDGE_OPTIONS = {
  'token-store': { type: 'string' },
  'max-in-flight': { type: 'string' },
  'max-line-bytes': { type: 'string' },
} as const;

/** Reads `mcp bridge <url> [options]`; `timeout` comes parsed, as every subcommand takes it. */
export function bridgeCommand(
  operands: readonly string[],
  flags: BridgeFlags & SessionFlags,
  serverArgv: readonly string[],
  timeout: number | undefined,
): BridgeCommand {
  if (operands.length !== 1) throw new UsageError('usage: mcp bridge <url> [--header "Name: value"] [--token-env VAR]');
  if (serverArgv.length > 0) throw new UsageError('mcp bridge forwards to a URL, not to a server command after "--"');
  const others = (['url', 'env', 'inherit-env', 'json', 'quiet', 'allow-sampling'] as const).filter(
    (name) => flags[name] !== undefined,
  );
  if (others.length > 0) throw new UsageError(`mcp bridge does not take --${others.join(', --')}`);
  const text = operands[0] as string;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new UsageError(`mcp bridge takes an http(s) URL, got "${text}"`);
  }
  const tokenEnv = tokenEnvFlag(flags['token-env']);
  if (tokenEnv !== undefined && flags['token-store'] !== undefined) {
    throw new UsageError('--token-store keeps OAuth tokens; with --token-env there are none to keep');
  }
  return {
    kind: 'bridge',
    url,
    headers: headerFlags(flags.header ?? []),
    ...(tokenEnv !== undefined && { tokenEnv }),
    ...(flags['token-store'] !== undefined && { tokenStore: flags['token-store'] }),
    ...(timeout !== undefined && { timeout }),
    maxInFlight: count('--max-in-flight', flags['max-in-flight'], DEFAULT_MAX_IN_FLIGHT),
    maxLineBytes: count('--max-line-bytes', flags['max-line-bytes'], DEFAULT_MAX_LINE_BYTES),
  };
}

/** Names of bridge-only flags given to another subcommand. */
export function bridgeFlagsIn(flags: BridgeFlags): string[] {
  return Object.keys(BRIDGE_OPTIONS)
    .filter((name) => flags[name as keyof BridgeFlags] !== undefined)
    .map((name) => `--${name}`);
}

function count(option: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${option} takes a positive whole number, got "${text}"`);
  }
  return value;
}

import { parseArgs } from 'node:util';
import { BRIDGE_OPTIONS, type BridgeCommand, bridgeCommand, bridgeFlagsIn } from './bridge/bridge-command.js';
import { UsageError } from './usage-error.js';

/** The server to spawn: everything after `--` on the command line. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** A remote server over Streamable HTTP (`--url`), authorized with OAuth when it asks. */
export interface ServerUrl {
  readonly url: URL;
}

/** Options every subcommand that talks to a server takes. */
export interface SessionOptions {
  readonly server: ServerCommand | ServerUrl;
  /** Added to the few variables the server inherits (`--env KEY=VALUE`). */
  readonly env: Readonly<Record<string, string>>;
  /** Hand the server all of our environment (`--inherit-env`), not just PATH, HOME and the like. */
  readonly inheritEnv: boolean;
  /** Per-request timeout in ms (`--timeout`); the client's default when absent. */
  readonly timeout?: number;
  /** Print machine-readable JSON instead of the terminal layout (`--json`). */
  readonly json: boolean;
  /** Drop the server's stderr instead of forwarding it (`--quiet`). */
  readonly quiet: boolean;
  /** At a terminal, let the user type the reply to a server's sampling request (`--allow-sampling`). */
  readonly allowSampling: boolean;
}

/** What the command line asks for, already validated: running it cannot fail on usage. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'inspect'; readonly session: SessionOptions }
  | {
      readonly kind: 'call';
      readonly session: SessionOptions;
      readonly tool: string;
      readonly args: Record<string, unknown>;
    }
  | { readonly kind: 'read'; readonly session: SessionOptions; readonly uri: string }
  | {
      readonly kind: 'prompt';
      readonly session: SessionOptions;
      readonly name: string;
      readonly args: Record<string, string>;
    }
  | BridgeCommand;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  timeout: { type: 'string' },
  env: { type: 'string', multiple: true },
  'inherit-env': { type: 'boolean' },
  url: { type: 'string' },
  'allow-sampling': { type: 'boolean' },
  ...BRIDGE_OPTIONS,
} as const;

/**
 * Reads `mcp [options] <subcommand> [operands] -- <server command…>`. Splitting at
 * the first `--` ourselves keeps the server's own flags (`--profile minimal`) away
 * from our parser. Throws `UsageError` for anything malformed.
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const split = argv.indexOf('--');
  const ours = split === -1 ? argv : argv.slice(0, split);
  const serverArgv = split === -1 ? [] : argv.slice(split + 1);
  const { values, positionals } = parseOurs(ours);
  if (values.help || positionals[0] === 'help') return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const [subcommand, ...operands] = positionals;
  if (subcommand === undefined) throw new UsageError('missing subcommand (inspect, call, read or prompt)');
  const expect = (min: number, max: number, shape: string) => {
    if (operands.length < min || operands.length > max) throw new UsageError(`usage: mcp ${subcommand} ${shape}`);
  };
  const session = () => sessionOptions(values, serverArgv);
  switch (subcommand) {
    case 'inspect':
      expect(0, 0, '-- <command…>');
      return { kind: 'inspect', session: session() };
    case 'call':
      expect(1, 2, "<tool> ['<json args>'] -- <command…>");
      return { kind: 'call', session: session(), tool: operands[0]!, args: jsonObject(operands[1]) };
    case 'read':
      expect(1, 1, '<uri> -- <command…>');
      return { kind: 'read', session: session(), uri: operands[0]! };
    case 'prompt':
      expect(1, 2, "<name> ['<json args>'] -- <command…>");
      return { kind: 'prompt', session: session(), name: operands[0]!, args: stringArguments(operands[1]) };
    case 'bridge': {
      const timeout = values.timeout === undefined ? undefined : positiveInteger('--timeout', values.timeout);
      return bridgeCommand(operands, values, serverArgv, timeout);
    }
    default:
      throw new UsageError(`unknown subcommand "${subcommand}"; expected inspect, call, read or prompt`);
  }
}

function parseOurs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages run on with advice about `--`; the first sentence is the useful part.
    const message = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? error.message) : String(error);
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1), { cause: error });
  }
}

type Values = ReturnType<typeof parseOurs>['values'];

function sessionOptions(values: Values, serverArgv: readonly string[]): SessionOptions {
  const timeout = values.timeout === undefined ? undefined : positiveInteger('--timeout', values.timeout);
  const bridgeOnly = bridgeFlagsIn(values);
  if (bridgeOnly.length > 0) throw new UsageError(`${bridgeOnly.join(', ')}: only mcp bridge takes these`);
  if (values.url !== undefined && (values.env !== undefined || values['inherit-env'])) {
    throw new UsageError('--env and --inherit-env set the environment of a server command, not of --url');
  }
  return {
    server: serverTarget(values.url, serverArgv),
    env: environment(values.env ?? []),
    inheritEnv: values['inherit-env'] ?? false,
    ...(timeout !== undefined && { timeout }),
    json: values.json ?? false,
    quiet: values.quiet ?? false,
    allowSampling: values['allow-sampling'] ?? false,
  };
}

function serverTarget(url: string | undefined, serverArgv: readonly string[]): ServerCommand | ServerUrl {
  const [command, ...args] = serverArgv;
  if (url !== undefined) {
    if (command !== undefined) throw new UsageError('give either --url or a server command after "--", not both');
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed?.protocol !== 'https:' && parsed?.protocol !== 'http:') {
      throw new UsageError(`--url takes an http(s) URL, got "${url}"`);
    }
    return { url: parsed };
  }
  if (command === undefined || command === '') {
    throw new UsageError('missing server command: put it after "--", e.g. mcp inspect -- node server.mjs');
  }
  return { command, args };
}

function positiveInteger(option: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${option} takes a positive number of milliseconds, got "${text}"`);
  }
  return value;
}

function environment(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env takes KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

/** Tool arguments: a JSON object, `{}` when omitted. */
function jsonObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** Prompt arguments are strings on the wire (every revision, §Prompts); anything else is refused here. */
function stringArguments(text: string | undefined): Record<string, string> {
  const object = jsonObject(text);
  for (const [key, value] of Object.entries(object)) {
    if (typeof value !== 'string') {
      throw new UsageError(`prompt arguments must be strings; "${key}" is ${value === null ? 'null' : typeof value}`);
    }
  }
  return object as Record<string, string>;
}

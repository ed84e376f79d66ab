import { parseArgs } from 'node:util';
import { messageOf } from '@mcp/core/transport';
import { BRIDGE_OPTIONS, type BridgeCommand, bridgeCommand, bridgeFlagsIn } from './bridge/bridge-command.js';
import { type JsonArguments, jsonArguments } from './json-arguments.js';
import { headerFlags, REMOTE_OPTIONS, tokenEnvFlag } from './remote-flags.js';
import { expandTemplate, isTemplate, templateValues } from './uri-template.js';
import { UsageError } from './usage-error.js';

/** The server to spawn: everything after `--` on the command line. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** A remote server over Streamable HTTP (`--url`), authorized with OAuth when it asks. */
export interface ServerUrl {
  readonly url: URL;
  /** `--header 'Name: value'`, sent on every HTTP request. */
  readonly headers: Readonly<Record<string, string>>;
  /** `--token-env VAR`: a bearer token read from that variable, instead of OAuth. */
  readonly tokenEnv?: string;
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
      readonly args: JsonArguments;
    }
  | {
      readonly kind: 'read';
      readonly session: SessionOptions;
      /** The URI, a template's already expanded. */
      readonly uri: string;
      /** `--out <file>`: where to write the decoded body instead of printing it. */
      readonly out?: string;
      /** `--force`: `--out` may replace an existing file. */
      readonly force: boolean;
    }
  | {
      readonly kind: 'prompt';
      readonly session: SessionOptions;
      readonly name: string;
      readonly args: JsonArguments;
    }
  | {
      readonly kind: 'complete';
      readonly session: SessionOptions;
      /** A prompt by name, or a resource template by its URI template. */
      readonly ref:
        | { readonly type: 'ref/prompt'; readonly name: string }
        | { readonly type: 'ref/resource'; readonly uri: string };
      readonly argument: string;
      /** What is typed so far (`''` when omitted). */
      readonly value: string;
      /** Arguments already chosen (`context.arguments`), as a JSON object of strings. */
      readonly context: JsonArguments;
    }
  | BridgeCommand;

/** Every subcommand, for the errors that list them. */
const SUBCOMMANDS = 'inspect, call, read, prompt, complete or bridge';
/** How a subcommand names its server, in usage lines. */
const SERVER = '(-- <command…> | --url <url>)';

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
  out: { type: 'string' },
  force: { type: 'boolean' },
  ...REMOTE_OPTIONS,
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
  if (subcommand === undefined) throw new UsageError(`missing subcommand (${SUBCOMMANDS})`);
  const expect = (min: number, max: number, shape: string) => {
    if (operands.length < min || operands.length > max) {
      throw new UsageError(['usage: mcp', subcommand, shape, '[options]', SERVER].filter(Boolean).join(' '));
    }
  };
  if (subcommand !== 'read' && (values.out !== undefined || values.force)) {
    throw new UsageError('--out and --force go with mcp read');
  }
  const session = () => sessionOptions(values, serverArgv);
  switch (subcommand) {
    case 'inspect':
      expect(0, 0, '');
      return { kind: 'inspect', session: session() };
    case 'call':
      expect(1, 2, "<tool> ['<json args>' | @file | @-]");
      return { kind: 'call', session: session(), tool: operands[0]!, args: jsonArguments(operands[1]) };
    case 'read':
      expect(1, Number.POSITIVE_INFINITY, '<uri | uri template> [name=value…] [--out <file> [--force]]');
      return readCommand(operands[0]!, operands.slice(1), values, session());
    case 'prompt':
      expect(1, 2, "<name> ['<json args>' | @file | @-]");
      return { kind: 'prompt', session: session(), name: operands[0]!, args: jsonArguments(operands[1]) };
    case 'complete':
      expect(3, 5, "(prompt <name> | resource <uri template>) <argument> [<value>] ['<json context>' | @file | @-]");
      return completeCommand(operands, session());
    case 'bridge': {
      const timeout = values.timeout === undefined ? undefined : positiveInteger('--timeout', values.timeout);
      return bridgeCommand(operands, values, serverArgv, timeout);
    }
    default:
      throw new UsageError(`unknown subcommand "${subcommand}"; expected ${SUBCOMMANDS}`);
  }
}

function parseOurs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages run on with advice about `--`; the first sentence is the useful part.
    const whole = messageOf(error);
    const message = whole.split(/\.\s/)[0] ?? whole;
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
  if (values.url === undefined && (values.header !== undefined || values['token-env'] !== undefined)) {
    throw new UsageError('--header and --token-env go with --url (or mcp bridge), not a server command');
  }
  return {
    server: serverTarget(values, serverArgv),
    env: environment(values.env ?? []),
    inheritEnv: values['inherit-env'] ?? false,
    ...(timeout !== undefined && { timeout }),
    json: values.json ?? false,
    quiet: values.quiet ?? false,
    allowSampling: values['allow-sampling'] ?? false,
  };
}

function serverTarget(values: Values, serverArgv: readonly string[]): ServerCommand | ServerUrl {
  const [command, ...args] = serverArgv;
  const { url } = values;
  if (url !== undefined) {
    if (command !== undefined) throw new UsageError('give either --url or a server command after "--", not both');
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed?.protocol !== 'https:' && parsed?.protocol !== 'http:') {
      throw new UsageError(`--url takes an http(s) URL, got "${url}"`);
    }
    const tokenEnv = tokenEnvFlag(values['token-env']);
    return { url: parsed, headers: headerFlags(values.header ?? []), ...(tokenEnv !== undefined && { tokenEnv }) };
  }
  if (command === undefined || command === '') {
    throw new UsageError(
      'missing server: put its command after "--" (mcp inspect -- node server.mjs) or give --url <url>',
    );
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

/** `mcp read <uri> [name=value…]`: a template's arguments are put into it here, so a mistake costs no connection. */
function readCommand(uri: string, operands: readonly string[], values: Values, session: SessionOptions): Command {
  if (values.force && values.out === undefined) throw new UsageError('--force lets --out replace a file; give --out');
  if (values.out === '') throw new UsageError('--out takes a file name');
  const templated = isTemplate(uri);
  if (!templated && operands.length > 0) throw new UsageError(`"${uri}" is no URI template; it takes no name=value`);
  return {
    kind: 'read',
    session,
    uri: templated ? expandTemplate(uri, templateValues(operands)) : uri,
    ...(values.out !== undefined && { out: values.out }),
    force: values.force ?? false,
  };
}

/** `mcp complete (prompt <name> | resource <uri template>) <argument> [<value>] [<context>]`. */
function completeCommand(operands: readonly string[], session: SessionOptions): Command {
  const [kind, target = '', argument = '', value = '', context] = operands;
  if (kind !== 'prompt' && kind !== 'resource') {
    throw new UsageError(`mcp complete takes "prompt <name>" or "resource <uri template>", got "${kind}"`);
  }
  const ref =
    kind === 'prompt' ? { type: 'ref/prompt' as const, name: target } : { type: 'ref/resource' as const, uri: target };
  return { kind: 'complete', session, ref, argument, value, context: jsonArguments(context) };
}

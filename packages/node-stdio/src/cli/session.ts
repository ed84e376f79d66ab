import { type CallOptions, Client, type ClientOptions } from '@mcp/core';
import { messageOf } from '@mcp/core/transport';
import { StdioTransport } from '../stdio-transport.js';
import type { SessionOptions } from './args.js';
import type { OutputStream } from './format.js';
import { bearerToken } from './remote-flags.js';
import { remoteTransport } from './remote-transport.js';
import { terminalSafe, terminalText } from './terminal-text.js';
import { VERSION } from './version.js';

/** How `mcp` reached the server: a child process, Streamable HTTP, or the 2024-11-05 HTTP+SSE it fell back to. */
export type TransportKind = 'stdio' | 'streamable-http' | 'http+sse';

/** An open connection to the server, and the options every request should carry. */
export interface Session {
  readonly client: Client;
  /** The interrupt signal and `--timeout`, ready to pass to any client method. */
  readonly call: CallOptions;
  readonly transport: TransportKind;
}

/** Why a session failed, with what the error line needs to know about the child. */
export class SessionError extends Error {
  override name = 'SessionError';
  /** `node server.mjs --flag`, as the user typed it. */
  readonly label: string;
  /** True when the process never started (a missing command, no permission). */
  readonly notStarted: boolean;

  constructor(cause: unknown, label: string, notStarted: boolean) {
    super(messageOf(cause), { cause });
    this.label = label;
    this.notStarted = notStarted;
  }
}

/**
 * Spawns the server, connects, runs `work`, and closes the client whatever
 * happens, so no child outlives the command. An abort of `signal` (Ctrl+C)
 * closes the client at once, which ends the child and fails pending calls.
 */
export async function withSession<T>(
  options: SessionOptions,
  stderr: OutputStream,
  signal: AbortSignal | undefined,
  work: (session: Session) => Promise<T>,
  openBrowser?: (url: string) => unknown,
  /** How the server's elicitation and sampling requests are answered (interactive/index.ts). */
  handlers?: Pick<ClientOptions, 'elicitation' | 'sampling'>,
  /** Read for `--token-env`. */
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<T> {
  const { transport, label, started, kind, close } = await openTransport(options, stderr, signal, openBrowser, env);
  const client = new Client(transport, {
    clientInfo: { name: 'mcp-cli', title: 'mcp command-line tool', version: VERSION },
    ...(options.timeout !== undefined && { requestTimeout: options.timeout }),
    ...handlers,
    ...(!options.quiet && { onNotification: (method, params) => logNotification(method, params, stderr) }),
  });
  const call: CallOptions = { ...(signal && { signal }) };
  const onAbort = () => void client.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    await client.connect(call);
    return await work({ client, call, transport: kind() });
  } catch (error) {
    throw new SessionError(error, label, !started());
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await client.close();
    await close();
  }
}

/** The transport for a child process (`-- <command…>`) or a URL (`--url`). */
async function openTransport(
  options: SessionOptions,
  stderr: OutputStream,
  signal: AbortSignal | undefined,
  openBrowser: ((url: string) => unknown) | undefined,
  env: Readonly<Record<string, string | undefined>>,
) {
  const target = options.server;
  if ('url' in target) {
    const remote = await remoteTransport(
      target.url,
      { stderr, ...(signal && { signal }), ...(openBrowser && { openBrowser }) },
      { headers: target.headers, ...(target.tokenEnv !== undefined && { token: bearerToken(target.tokenEnv, env) }) },
    );
    const { transport } = remote;
    const kind = (): TransportKind => (transport.usesLegacySse ? 'http+sse' : 'streamable-http');
    return { transport, label: target.url.href, started: () => true, kind, close: remote.close };
  }
  const { command, args } = target;
  const transport = new StdioTransport({
    command,
    args,
    env: options.env,
    inheritEnv: options.inheritEnv,
    // The server's stderr is its log (2025-11-25, Transports, stdio): passed through unless --quiet,
    // as text: a log line must not drive our terminal.
    stderr: options.quiet ? 'ignore' : (line) => stderr.write(`${terminalText(line)}\n`),
  });
  const label = [command, ...args].join(' ');
  const kind = (): TransportKind => 'stdio';
  return { transport, label, started: () => transport.pid !== undefined, kind, close: async () => {} };
}

/** Log messages the server sends (`notifications/message`, 2025-11-25 server/utilities/logging) go to stderr. */
function logNotification(method: string, params: Readonly<Record<string, unknown>> | undefined, out: OutputStream) {
  if (method !== 'notifications/message' || !params) return;
  const source = typeof params.logger === 'string' ? ` ${params.logger}` : '';
  // Data of any depth: terminalSafe elides past MAX_PRINT_DEPTH, where JSON.stringify would overflow the stack.
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(terminalSafe(params.data));
  out.write(`${terminalText(`server log [${String(params.level)}]${source}: ${data}`)}\n`);
}

import { type Command, parseCommandLine } from './args.js';
import { runBridge } from './bridge/bridge.js';
import { renderToolResult, toolResultJson } from './call.js';
import { describeFailure, EXIT_FAILURE } from './error-line.js';
import { type OutputStream, styleFor, toJson } from './format.js';
import { HELP } from './help.js';
import { inspectServer, renderInspection } from './inspect.js';
import { type InputStream, interactiveTerminal } from './interactive/index.js';
import { promptResultJson, renderPromptResult } from './prompt.js';
import { renderReadResult } from './read.js';
import { withSession } from './session.js';
import { terminalSafe, terminalText } from './terminal-text.js';
import { VERSION } from './version.js';

/** Where `run` reads and writes; the bin passes the process's own, tests pass captures. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Where the user answers a server's questions (default `process.stdin`); asked only when it and stderr are TTYs. */
  readonly stdin?: InputStream;
  /** Read for NO_COLOR (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl+C: the client is closed, the child stopped, and `run` returns 130. */
  readonly signal?: AbortSignal;
  /** Opens an OAuth authorization URL for `--url` (default: the system browser). */
  readonly openBrowser?: (url: string) => unknown;
}

/**
 * Runs the `mcp` command line (`argv` without `node` and the script) and returns
 * the exit status. Never throws: every failure becomes one line on stderr.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await execute(parseCommandLine(argv), io);
  } catch (error) {
    const failure = describeFailure(error, io.signal?.aborted === true);
    // The message may quote the server (an RPC error, a line that was not JSON).
    io.stderr.write(`${terminalText(failure.line)}\n`);
    return failure.exitCode;
  }
}

async function execute(command: Command, io: CliIo): Promise<number> {
  if (command.kind === 'help') return print(io, HELP.trimEnd().split('\n'));
  if (command.kind === 'version') return print(io, [VERSION]);
  // The bridge serves MCP on the process's own stdin and stdout.
  if (command.kind === 'bridge') return runBridge(command, { ...io, stdin: process.stdin });
  const style = styleFor(io.stdout, io.env ?? process.env);
  const { json } = command.session;
  const terminal = interactiveTerminal({
    stdin: io.stdin ?? process.stdin,
    stderr: io.stderr,
    quiet: command.session.quiet,
    allowSampling: command.session.allowSampling,
    ...(io.openBrowser && { openBrowser: io.openBrowser }),
  });
  return withSession(
    command.session,
    terminal.stderr,
    io.signal,
    async ({ client, call }) => {
      switch (command.kind) {
        case 'inspect': {
          const report = await inspectServer(client, call);
          return print(io, json ? [toJson(report)] : renderInspection(terminalSafe(report), style, io.stdout.columns));
        }
        case 'call': {
          // Progress restarts the call's timeout; an explicit --timeout still bounds the whole call.
          const { timeout } = command.session;
          const progress = { onProgress: terminal.progress.update, ...(timeout && { maxTotalTimeout: timeout }) };
          // The progress line is erased before the result, or the error line, is written.
          const result = await client
            .callTool(command.tool, command.args, { ...call, ...progress })
            .finally(terminal.progress.clear);
          print(io, json ? [toJson(toolResultJson(result))] : renderToolResult(terminalSafe(result), style));
          if (!result.isError) return 0;
          io.stderr.write(`mcp: tool "${command.tool}" returned an error result (isError)\n`);
          return EXIT_FAILURE;
        }
        case 'read': {
          const result = await client.readResource(command.uri, call);
          return print(io, json ? [toJson(result)] : renderReadResult(terminalSafe(result), style));
        }
        case 'prompt': {
          const result = await client.getPrompt(command.name, command.args, call);
          return print(io, json ? [toJson(promptResultJson(result))] : renderPromptResult(terminalSafe(result), style));
        }
      }
    },
    io.openBrowser,
    terminal.handlers,
  );
}

function print(io: CliIo, lines: readonly string[]): 0 {
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

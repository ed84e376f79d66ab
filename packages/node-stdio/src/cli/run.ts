import { type Command, parseCommandLine } from './args.js';
import { runBridge } from './bridge/bridge.js';
import { renderToolResult, toolResultJson } from './call.js';
import { completeArgument, renderCompletion } from './complete.js';
import { describeFailure, EXIT_FAILURE } from './error-line.js';
import { type OutputStream, styleFor, toJson } from './format.js';
import { HELP } from './help.js';
import { inspectServer, renderInspection } from './inspect.js';
import { type InputStream, interactiveTerminal } from './interactive/index.js';
import { readArguments, stringValues } from './json-arguments.js';
import { promptResultJson, renderPromptResult } from './prompt.js';
import { renderReadResult } from './read.js';
import { saveBody, savedLine } from './save-body.js';
import { withSession } from './session.js';
import { terminalSafe, terminalText } from './terminal-text.js';
import { VERSION } from './version.js';

/** Where `run` reads and writes; the bin passes the process's own, tests pass captures. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /**
   * Where the user answers a server's questions (default `process.stdin`), asked only
   * when it and stderr are TTYs; and where `@-` reads arguments from.
   */
  readonly stdin?: InputStream;
  /** Read for NO_COLOR and `--token-env` (default `process.env`). */
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
  const env = io.env ?? process.env;
  const style = styleFor(io.stdout, env);
  const { json } = command.session;
  const stdin = io.stdin ?? process.stdin;
  // Arguments from a file or stdin are read, and checked, before the server is started.
  const args = 'args' in command ? await readArguments(command.args, { stdin, signal: io.signal }) : {};
  const strings = command.kind === 'prompt' ? stringValues(args, 'prompt arguments') : {};
  const context =
    command.kind === 'complete'
      ? stringValues(await readArguments(command.context, { stdin, signal: io.signal }), 'context arguments')
      : {};
  const terminal = interactiveTerminal({
    stdin,
    stderr: io.stderr,
    quiet: command.session.quiet,
    allowSampling: command.session.allowSampling,
    ...(io.openBrowser && { openBrowser: io.openBrowser }),
  });
  return withSession(
    command.session,
    terminal.stderr,
    io.signal,
    async ({ client, call, transport }) => {
      switch (command.kind) {
        case 'inspect': {
          const report = await inspectServer(client, call, transport);
          return print(io, json ? [toJson(report)] : renderInspection(terminalSafe(report), style, io.stdout.columns));
        }
        case 'call': {
          // Progress restarts the call's timeout; an explicit --timeout still bounds the whole call.
          const { timeout } = command.session;
          const progress = { onProgress: terminal.progress.update, ...(timeout && { maxTotalTimeout: timeout }) };
          // The progress line is erased before the result, or the error line, is written.
          const result = await client
            .callTool(command.tool, args, { ...call, ...progress })
            .finally(terminal.progress.clear);
          print(io, json ? [toJson(toolResultJson(result))] : renderToolResult(terminalSafe(result), style));
          if (!result.isError) return 0;
          io.stderr.write(`mcp: tool "${command.tool}" returned an error result (isError)\n`);
          return EXIT_FAILURE;
        }
        case 'read': {
          const result = await client.readResource(command.uri, call);
          if (command.out !== undefined) {
            const saved = await saveBody(result, command.out, command.force);
            return print(io, [json ? toJson(saved) : terminalText(savedLine(saved))]);
          }
          return print(io, json ? [toJson(result)] : renderReadResult(terminalSafe(result), style));
        }
        case 'prompt': {
          const result = await client.getPrompt(command.name, strings, call);
          return print(io, json ? [toJson(promptResultJson(result))] : renderPromptResult(terminalSafe(result), style));
        }
        case 'complete': {
          const completion = await completeArgument(client, command, context, call);
          return print(io, json ? [toJson(completion)] : renderCompletion(terminalSafe(completion), style));
        }
      }
    },
    io.openBrowser,
    terminal.handlers,
    env,
  );
}

function print(io: CliIo, lines: readonly string[]): 0 {
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

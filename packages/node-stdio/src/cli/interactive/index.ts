/**
 * What `mcp` does at a terminal while a server works: shows its progress, and
 * answers its elicitation and sampling requests by asking the user.
 * Interactive means stdin and stderr are both terminals; all of it happens on
 * stderr and stdin, so stdout stays the result.
 */
import type { ClientOptions, ElicitationHandler, SamplingHandler } from '@mcp/core';
import type { OutputStream } from '../format.js';
import { type Asker, type InputStream, readlineAsker } from './asker.js';
import { answerForm, answerUrl } from './elicit.js';
import { type ProgressReporter, progressReporter } from './progress.js';
import { samplingLines, samplingRefused, typedReply } from './sampling.js';

export type { InputStream } from './asker.js';

/** The command's terminal: its streams, and what the command line said about them. */
export interface TerminalIo {
  readonly stdin: InputStream;
  readonly stderr: OutputStream;
  /** `--quiet`: no progress, and a sampling request is not shown (it is still refused). */
  readonly quiet: boolean;
  /** `--allow-sampling`: at a terminal, the user may type the reply to a sampling request. */
  readonly allowSampling: boolean;
  /** Opens the URL of an accepted URL-mode elicitation; without it, the user opens it. */
  readonly openBrowser?: (url: string) => unknown;
}

/** The interactive side of one command. */
export interface InteractiveTerminal {
  /** Whether the user can be asked: stdin and stderr are terminals. */
  readonly interactive: boolean;
  /** stderr for everything else the command writes: it erases the progress line first. */
  readonly stderr: OutputStream;
  /** The handlers to give the Client. */
  readonly handlers: Pick<ClientOptions, 'elicitation' | 'sampling'>;
  /** Progress of `mcp call`: a line on a terminal, plain lines elsewhere, nothing with `--quiet`. */
  readonly progress: ProgressReporter;
}

const QUIET: ProgressReporter = {
  update: () => {},
  clear: () => {},
  suspend: () => {},
  resume: () => {},
  around: (write) => write(),
};

/**
 * The progress reporter and the request handlers for a command. At a terminal,
 * elicitation (form and URL mode) is declared and asked of the user; elsewhere
 * it is not declared, and a server that asks anyway is declined by the client.
 * Sampling is always declared, so a request is shown rather than silently
 * failing; it is refused (JSON-RPC error -1) unless `--allow-sampling` at a
 * terminal, where the user types the reply. Prompts take turns: one at a time,
 * with the progress line put away meanwhile.
 */
export function interactiveTerminal(io: TerminalIo): InteractiveTerminal {
  const writable = asWritable(io.stderr);
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true && writable !== undefined;
  const progress = io.quiet ? QUIET : progressReporter(io.stderr);
  const stderr: OutputStream = {
    write: (chunk) => {
      progress.around(() => io.stderr.write(chunk));
      return true;
    },
    ...(io.stderr.isTTY !== undefined && { isTTY: io.stderr.isTTY }),
  };

  let turn: Promise<unknown> = Promise.resolve();
  /** Runs `work` with the terminal to itself, after any prompt already under way (unless `signal` aborted meanwhile). */
  const withPrompt = <T>(signal: AbortSignal, work: (asker: Asker) => Promise<T>): Promise<T> => {
    const mine = turn.then(async () => {
      signal.throwIfAborted();
      progress.suspend();
      const asker = readlineAsker(io.stdin, writable as NodeJS.WritableStream);
      try {
        return await work(asker);
      } finally {
        asker.close();
        progress.resume();
      }
    });
    turn = mine.catch(() => {});
    return mine;
  };

  const elicit: ElicitationHandler = (request, { signal }) =>
    withPrompt(signal, (asker) =>
      request.mode === 'url' ? answerUrl(request, asker, io.openBrowser, signal) : answerForm(request, asker, signal),
    );

  const sample: SamplingHandler = async (request, { signal }) => {
    if (interactive && io.allowSampling) {
      return withPrompt(signal, (asker) => {
        asker.say(['', ...samplingLines(request)]);
        return typedReply(asker, signal);
      });
    }
    if (!io.quiet) {
      const why = io.allowSampling ? 'not a terminal' : 'run with --allow-sampling to answer it yourself';
      stderr.write(`${[...samplingLines(request), `Refused (${why}).`].join('\n')}\n`);
    }
    throw samplingRefused();
  };

  return {
    interactive,
    stderr,
    handlers: { sampling: sample, ...(interactive && { elicitation: { handler: elicit, url: true } }) },
    progress,
  };
}

/** The stream readline can draw on: a real writable (process.stderr), not a test's capture. */
function asWritable(stream: OutputStream): NodeJS.WritableStream | undefined {
  const candidate = stream as Partial<NodeJS.WritableStream>;
  return typeof candidate.on === 'function' && typeof candidate.once === 'function'
    ? (stream as NodeJS.WritableStream)
    : undefined;
}

/**
 * Line prompts on the terminal with node:readline: the question and the
 * user's editing on stderr, the answer from stdin, so stdout stays the result.
 */
import { createInterface } from 'node:readline';
import { terminalText } from '../terminal-text.js';

/** Asks for one line at a time. */
export interface Asker {
  /**
   * Shows `prompt`, puts `prefill` on the line for the user to keep or edit,
   * and resolves with the line typed, or undefined when input ended (Ctrl+D).
   * Rejects with the signal's reason when `signal` aborts.
   */
  ask(prompt: string, prefill?: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Writes lines of text above the prompt (already made terminal-safe by the caller). */
  say(lines: readonly string[]): void;
}

/** A readable the terminal answers on: `process.stdin` in the bin. */
export type InputStream = NodeJS.ReadableStream & { readonly isTTY?: boolean };

/** An Asker over a readline interface; `close` gives the terminal back (cooked mode, stdin paused). */
export function readlineAsker(
  input: InputStream,
  output: NodeJS.WritableStream,
): Asker & { close(): void; readonly closed: boolean } {
  const rl = createInterface({ input, output, terminal: true, historySize: 0 });
  let closed = false;
  rl.once('close', () => {
    closed = true;
  });
  // In raw mode Ctrl+C reaches readline, not the process: raise the SIGINT the
  // terminal would have sent, so `mcp` stops as it does everywhere else (exit 130).
  rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  return {
    get closed() {
      return closed;
    },
    ask(prompt, prefill = '', signal) {
      return new Promise((resolve, reject) => {
        if (closed) return resolve(undefined);
        if (signal?.aborted) return reject(signal.reason);
        const done = () => {
          rl.off('close', onClose);
          signal?.removeEventListener('abort', onAbort);
        };
        const onClose = () => {
          done();
          resolve(undefined);
        };
        const onAbort = () => {
          done();
          reject(signal?.reason);
          // The question stays on the line until `close`; end the line so what follows starts afresh.
          output.write('\n');
        };
        rl.once('close', onClose);
        signal?.addEventListener('abort', onAbort, { once: true });
        rl.question(prompt, (answer) => {
          done();
          resolve(answer);
        });
        // Typed into the line editor as keys: a default holding a control character
        // (a CR would submit it) must lose it first.
        const keys = terminalText(prefill).replace(/\s+/g, ' ');
        if (keys !== '') rl.write(keys);
      });
    },
    say(lines) {
      if (lines.length > 0) output.write(`${lines.join('\n')}\n`);
    },
    close() {
      rl.close();
    },
  };
}

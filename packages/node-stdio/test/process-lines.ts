import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * The lines a child process prints, one at a time: each call of the returned
 * function resolves to the next line, and rejects (with what it wrote on
 * stderr) once the process has exited without printing it.
 */
export function nextLineOf(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  const lines: string[] = [];
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let buffered = '';
  let stderr = '';
  let exited = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(line);
      else lines.push(line);
    }
  });
  const gone = () => new Error(`the process exited without another line; its stderr: ${stderr}`);
  child.once('close', () => {
    exited = true;
    for (const waiter of waiting.splice(0)) waiter.reject(gone());
  });
  return () => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (exited) return Promise.reject(gone());
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

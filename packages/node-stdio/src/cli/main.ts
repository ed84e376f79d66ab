/**
 * The `mcp` bin (dist/cli.js). A thin shell around `run`: real argv and streams,
 * Ctrl+C (and SIGTERM) turned into an abort so the server child is always stopped.
 */
import { run } from './run.js';

const controller = new AbortController();
const interrupt = () => controller.abort();
process.once('SIGINT', interrupt);
process.once('SIGTERM', interrupt);
// A reader that stops early (`mcp inspect … | head`) closes the pipe; that is not our failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
process.off('SIGINT', interrupt);
process.off('SIGTERM', interrupt);

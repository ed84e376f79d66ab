// The child process of a real run: `node run-program.mjs <entry.js> <url> <log>`.
// Records every module loaded from here on (record-loads.mjs) and the JSON-RPC
// method of every POST the program sends, imports the bundled program, runs it
// against `url`, and prints `{"text", "methods"}` as one JSON line. Any failure
// exits non-zero: a run that did not do its job measures nothing.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const [entry, url, log] = process.argv.slice(2);
if (entry === undefined || url === undefined || log === undefined) {
  console.error('usage: node run-program.mjs <entry.js> <url> <log>');
  process.exit(2);
}
register('./record-loads.mjs', import.meta.url, { data: { log } });

/** Which era the program spoke shows in what it sent: `server/discover` alone, or `initialize` first. */
const methods = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const body = input instanceof Request ? await input.clone().text() : init?.body;
  if (typeof body === 'string' && body.startsWith('{')) {
    const message = JSON.parse(body);
    if (typeof message.method === 'string') methods.push(message.method);
  }
  return realFetch(input, init);
};

/** An error and its causes on one line: the parent shows it as the reason the run does not count. */
const explain = (error) =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.cause ? ` <- ${explain(error.cause)}` : ''}`
    : String(error);

try {
  const { run } = await import(pathToFileURL(entry).href);
  const text = await run(url);
  if (typeof text !== 'string' || text === '')
    throw new Error(`the program returned ${JSON.stringify(text)}, not a tool's text`);
  process.stdout.write(`${JSON.stringify({ text, methods })}\n`);
  // An idle keep-alive socket must not hold the measurement up.
  process.exit(0);
} catch (error) {
  console.error(`run failed: ${explain(error)}`);
  process.exit(1);
}

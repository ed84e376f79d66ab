#!/usr/bin/env node
/**
 * The conformance client command (`pnpm --silent run conformance-client <url>`).
 * The harness appends the server URL and sets MCP_CONFORMANCE_SCENARIO,
 * MCP_CONFORMANCE_PROTOCOL_VERSION (the revision whose lifecycle to speak) and
 * MCP_CONFORMANCE_CONTEXT (scenario data as JSON).
 *
 * A hard deadline ends the process whatever it is waiting on: the harness's own
 * timeout only kills the shell it started, which would leave a hung client behind.
 */
import { runApp } from './app.mjs';
import { planFor } from './plans.mjs';
import { watchUnhandled } from './unhandled.mjs';

const unhandled = watchUnhandled();

/** Below the harness's 30 s scenario timeout, so the client's own error is what gets recorded. */
const DEADLINE_MS = Number(process.env.CONFORMANCE_CLIENT_DEADLINE_MS ?? 25_000);

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: conformance-client <server-url>\n');
  process.exit(2);
}

setTimeout(() => {
  process.stderr.write(`[app] deadline of ${DEADLINE_MS} ms passed; exiting\n`);
  process.exit(124);
}, DEADLINE_MS).unref();

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
/** @type {Record<string, unknown>} */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined;

try {
  await runApp({ url, plan: planFor(scenario, context), ...(protocolVersion && { protocolVersion }) });
  process.exit(await unhandled.exitCode(0));
} catch (error) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`[app] failed: ${text}\n`);
  if (error instanceof Error && error.cause) process.stderr.write(`[app] cause: ${String(error.cause)}\n`);
  process.exit(await unhandled.exitCode(1));
}

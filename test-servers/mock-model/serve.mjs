#!/usr/bin/env node
/**
 * Starts the mock model: in process with `startMockModel(options)`, or
 * `node test-servers/mock-model/serve.mjs [--port N] [--script FILE] [--api-key KEY]`
 * (port 0 = ephemeral, the default), which prints one line of JSON and runs
 * until killed or until its stdin (when that is a pipe) closes:
 *
 *   {"url":"http://127.0.0.1:P/v1"}
 *
 * `url` is the base URL to give `createOpenAICompatible({ baseURL })`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { toNodeListener } from '../http/node-adapter.mjs';
import { listenOnLoopback, stopWhenTold } from '../serve-process.mjs';
import { createMockModel } from './mock-model.mjs';

/**
 * Listens on 127.0.0.1. Throws a TypeError for an invalid script.
 * @param {{ port?: number, script?: unknown, apiKey?: string, maxBodyBytes?: number }} [options]
 */
export async function startMockModel({ port = 0, ...options } = {}) {
  const model = createMockModel(options);
  const server = createServer(toNodeListener(model.handler));
  const origin = await listenOnLoopback(server, port);
  return {
    url: `${origin}/v1`,
    origin,
    requests: model.requests,
    setScript: model.setScript,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, script: { type: 'string' }, 'api-key': { type: 'string' } },
    strict: true,
  });
  let model;
  try {
    model = await startMockModel({
      port: Number(values.port),
      ...(values.script !== undefined && { script: JSON.parse(readFileSync(values.script, 'utf8')) }),
      ...(values['api-key'] !== undefined && { apiKey: values['api-key'] }),
    });
  } catch (error) {
    process.stderr.write(`mock-model: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify({ url: model.url })}\n`);
  stopWhenTold(() => model.close());
}

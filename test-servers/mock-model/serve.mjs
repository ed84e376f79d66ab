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
import { fstatSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { toNodeListener } from '../http/node-adapter.mjs';
import { createMockModel } from './mock-model.mjs';

/**
 * Listens on 127.0.0.1. Throws a TypeError for an invalid script.
 * @param {{ port?: number, script?: unknown, apiKey?: string, maxBodyBytes?: number }} [options]
 */
export async function startMockModel({ port = 0, ...options } = {}) {
  const model = createMockModel(options);
  const server = createServer(toNodeListener(model.handler));
  const origin = await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '');
    });
  });
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
  const stop = () => void model.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Only a pipe: a stdin of /dev/null (e.g. spawned with stdio 'ignore') ends at once.
  const stdin = fstatSync(0);
  if (stdin.isFIFO() || stdin.isSocket()) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
}

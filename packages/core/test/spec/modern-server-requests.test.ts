import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, StreamableHttpTransport, type Transport } from '../../src/index.js';
import { until } from '../transport/http/harness.js';
import { requestingServer } from './requesting-server.mjs';

const script = fileURLToPath(new URL('./requesting-server.mjs', import.meta.url));

/** An HTTP endpoint for `requestingServer()`: `ask` answers as SSE, the forbidden requests first; responses get 202. */
let http: Server | undefined;
let url = '';
beforeAll(async () => {
  let server = requestingServer();
  http = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const message = JSON.parse(body);
      // Each client starts with `server/discover`: a fresh state per client.
      if (message.method === 'server/discover') server = requestingServer();
      const out = server.answer(message);
      if (out.length === 0) {
        response.writeHead(202).end();
      } else if (out.length === 1) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out[0]));
      } else {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(out.map((each) => `event: message\ndata: ${JSON.stringify(each)}\n\n`).join(''));
      }
    });
  });
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/**
 * Connects a client with a sampling handler (so a legacy-style answer would
 * run it) to the requesting server, lets it send its forbidden requests, and
 * returns what the client reported and what the server received in reply.
 */
async function afterForbiddenRequests(transport: Transport) {
  const errors: Error[] = [];
  let sampled = 0;
  const client = new Client(transport, {
    eraCache: new Map(),
    requestTimeout: 5000,
    sampling: () => {
      sampled++;
      return { role: 'assistant', content: { type: 'text', text: 'no' }, model: 'm' };
    },
    onError: (error) => errors.push(error),
  });
  clients.push(client);
  await client.connect();
  expect(client.era).toBe('modern');
  await expect(client.callTool('ask', {})).resolves.toMatchObject({ text: 'asked' });
  await until(() => errors.length >= 2);
  const replies = await client.callTool('replies', {});
  return { errors, sampled, replies: JSON.parse(replies.text) as unknown[] };
}

/** Nothing went back to the server, no handler ran, and each request was reported, naming its method. */
function expectDropped({ errors, sampled, replies }: Awaited<ReturnType<typeof afterForbiddenRequests>>): void {
  expect(replies).toEqual([]);
  expect(sampled).toBe(0);
  expect(errors).toHaveLength(2);
  for (const error of errors) expect(error).toBeInstanceOf(ProtocolError);
  expect(errors.map((error) => error.message)).toEqual([
    expect.stringContaining('ping'),
    expect.stringContaining('sampling/createMessage'),
  ]);
}

/** Checklist §2 and §4: in 2026-07-28 the client never writes a response; a request from the server is logged and dropped. */
describe('spec: a 2026-07-28 client sends no responses', () => {
  it('drops the requests a 2026-07-28 server sends over Streamable HTTP, each reported to onError as a ProtocolError naming its method', async () => {
    expectDropped(await afterForbiddenRequests(new StreamableHttpTransport(url)));
  });

  it('drops the requests a 2026-07-28 server writes over stdio, each reported to onError as a ProtocolError naming its method', async () => {
    const transport = new StdioTransport({ command: process.execPath, args: [script], closeTimeout: 500 });
    expectDropped(await afterForbiddenRequests(transport));
  });
});

#!/usr/bin/env node
/**
 * A 2026-07-28 server that breaks the revision's one-way rule: it sends the
 * client JSON-RPC requests (`ping`, `sampling/createMessage`), which a modern
 * server must never do (2026-07-28 basic § JSON-RPC, stdio transport). Raw
 * JSON-RPC, no SDK: no SDK would send them. Over stdio when run as a script
 * (`node requesting-server.mjs`); `answer()` serves the HTTP test too.
 *
 * - `server/discover`: only `2026-07-28`, `tools` declared.
 * - `tools/call ask`: first the two forbidden requests (ids `forbidden-1`,
 *   `forbidden-2`), then the text `asked`.
 * - `tools/call replies`: the text of a JSON list of every response the client
 *   sent so far (a message with an `id` and no `method`): `[]` when it sent none.
 */
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The requests `ask` sends before its result. */
export const FORBIDDEN_REQUESTS = [
  { jsonrpc: '2.0', id: 'forbidden-1', method: 'ping' },
  {
    jsonrpc: '2.0',
    id: 'forbidden-2',
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
  },
];

const complete = (id, result) => ({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
const text = (id, value) => complete(id, { content: [{ type: 'text', text: value }] });

/**
 * One server's state: `answer(message)` gives the messages to send back, in
 * order (none for a notification or a response, which it records).
 */
export function requestingServer() {
  const replies = [];
  return {
    answer(message) {
      if (message.method === undefined) {
        replies.push(message);
        return [];
      }
      if (message.id === undefined) return [];
      switch (message.method) {
        case 'server/discover':
          return [complete(message.id, { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } })];
        case 'tools/call':
          return message.params?.name === 'ask'
            ? [...FORBIDDEN_REQUESTS, text(message.id, 'asked')]
            : [text(message.id, JSON.stringify(replies))];
        default:
          return [{ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }];
      }
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = requestingServer();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue;
    for (const out of server.answer(JSON.parse(line))) process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}

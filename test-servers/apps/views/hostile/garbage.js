// Hostile: after a proper handshake, posts messages that are not valid
// JSON-RPC (or are, for methods and ids no host should accept), then one
// valid request to show whether the host still answers. Answers by id land
// in `#outcome` under `answer-<id>`.
import { connectView, postRaw, report } from '../view-kit.js';

window.addEventListener('message', (event) => {
  const id = event.data?.id;
  if (typeof id !== 'string' || !id.startsWith('garbage-')) return;
  report(`answer-${id}`, event.data.error !== undefined ? `error ${event.data.error.code}` : 'result');
});

await connectView('hostile-garbage');

let deep = [];
for (let depth = 0; depth < 1000; depth += 1) deep = [deep];

const garbage = [
  'not json at all',
  '{"jsonrpc":"2.0","id":"garbage-string","method":"ping"}',
  42,
  null,
  [1, 2, 3],
  {},
  new Date(0),
  new ArrayBuffer(8),
  { jsonrpc: '1.0', id: 'garbage-v1', method: 'ping' },
  { jsonrpc: '2.0', id: { nested: true }, method: 'ping' },
  { jsonrpc: '2.0', id: 'garbage-method-number', method: 7 },
  { jsonrpc: '2.0', id: 'garbage-params-string', method: 'tools/call', params: 'nope' },
  { jsonrpc: '2.0', id: 'garbage-no-name', method: 'tools/call', params: { arguments: {} } },
  { jsonrpc: '2.0', id: 'garbage-unknown-method', method: 'no/such-method', params: {} },
  { jsonrpc: '2.0', id: 'garbage-initialize-again', method: 'ui/initialize', params: {} },
  { jsonrpc: '2.0', id: 'garbage-sampling', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
  { jsonrpc: '2.0', id: 'garbage-unsolicited-result', result: {} },
  { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>swap</p>' } },
  { jsonrpc: '2.0', id: 'garbage-deep', method: 'ping', params: { deep } },
  { jsonrpc: '2.0', id: 'garbage-proto', method: 'ping', params: JSON.parse('{"__proto__":{"polluted":true}}') },
];
for (const message of garbage) postRaw(message);
postRaw({ jsonrpc: '2.0', id: 'garbage-final-ping', method: 'ping' });
report('sent', String(garbage.length + 1));

// Hostile: once it has its tool input, posts `count` messages (default 10,000)
// as fast as it can: `ping` requests, or `notifications/message` when
// `kind` is "notification". Counts the answers it gets back.
import { connectView, postRaw, report } from '../view-kit.js';

let answered = 0;
let errors = 0;
window.addEventListener('message', (event) => {
  const id = event.data?.id;
  if (typeof id !== 'string' || !id.startsWith('flood-')) return;
  if (event.data.error !== undefined) errors += 1;
  else answered += 1;
  report('answered', String(answered));
  report('errors', String(errors));
});

await connectView('hostile-flood', (app) => {
  app.ontoolinput = ({ arguments: args }) => flood(args?.count ?? 10_000, args?.kind ?? 'request');
});

function flood(count, kind) {
  for (let index = 0; index < count; index += 1) {
    postRaw(
      kind === 'notification'
        ? { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `flood ${index}` } }
        : { jsonrpc: '2.0', id: `flood-${index}`, method: 'ping' },
    );
  }
  report('sent', String(count));
}

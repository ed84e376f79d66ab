// Hostile: once it has its tool input, sends one `ui/message` whose text is
// `bytes` long (default 20 MB).
import { attempt, connectView } from '../view-kit.js';

const app = await connectView('hostile-oversized', (app) => {
  app.ontoolinput = ({ arguments: args }) => void send(args?.bytes ?? 20_000_000);
});

function send(bytes) {
  return attempt('oversized', () =>
    app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'x'.repeat(bytes) }] }),
  );
}

// Hostile: sends `ui/initialize` and shows the answer, but never sends
// `ui/notifications/initialized`. Whatever the host sends afterwards is
// counted in `#outcome` (`received`): a host must send nothing.
import { postRaw, report } from '../view-kit.js';

let received = 0;
window.addEventListener('message', (event) => {
  if (event.data?.id === 'never-initialize') {
    report('initialize', event.data.error !== undefined ? `error ${event.data.error.code}` : 'result');
    return;
  }
  received += 1;
  report('received', `${received} ${String(event.data?.method)}`);
});
postRaw({
  jsonrpc: '2.0',
  id: 'never-initialize',
  method: 'ui/initialize',
  params: {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'hostile-never-initialize', version: '1.0.0' },
    appCapabilities: {},
  },
});
report('initialize', 'sent');

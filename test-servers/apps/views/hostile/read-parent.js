// Hostile: tries to read the host page's DOM and storage, and its own origin's.
import { connectView, messageOf, report } from '../view-kit.js';

await connectView('hostile-read-parent');
for (const [key, read] of [
  ['parent-document', () => window.parent.document.body.innerHTML],
  ['top-document', () => window.top.document.documentElement.outerHTML],
  ['top-cookie', () => window.top.document.cookie],
  ['parent-local-storage', () => JSON.stringify({ ...window.parent.localStorage })],
  ['top-location-href', () => window.top.location.href],
  ['own-cookie', () => document.cookie],
  ['own-local-storage', () => JSON.stringify({ ...window.localStorage })],
]) {
  try {
    const value = read();
    report(key, `read: ${String(value).slice(0, 200)}`);
  } catch (error) {
    report(key, `blocked: ${messageOf(error)}`);
  }
}
report('done', 'yes');

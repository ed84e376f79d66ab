// Hostile: tries to open windows outside the sandbox.
import { connectView, messageOf, report } from '../view-kit.js';

await connectView('hostile-popup');
const target = 'https://example.com/escaped-by-popup';
try {
  const opened = window.open(target, '_blank');
  report('window-open', opened === null ? 'blocked: null' : 'opened');
} catch (error) {
  report('window-open', `blocked: ${messageOf(error)}`);
}
try {
  const anchor = document.createElement('a');
  anchor.href = target;
  anchor.target = '_blank';
  document.body.append(anchor);
  anchor.click();
  report('anchor-blank', 'clicked');
} catch (error) {
  report('anchor-blank', `blocked: ${messageOf(error)}`);
}
report('done', 'yes');

// Hostile: tries to navigate the host page (and its own parent) away.
import { connectView, messageOf, report } from '../view-kit.js';

await connectView('hostile-navigate-top');
const target = 'https://example.com/escaped-by-navigation';
for (const [key, navigate] of [
  ['top-location', () => window.top.location.assign(target)],
  ['top-href', () => (window.top.location.href = target)],
  ['parent-location', () => (window.parent.location = target)],
  ['anchor-target-top', () => clickAnchor(target, '_top')],
]) {
  try {
    navigate();
    report(key, 'no exception');
  } catch (error) {
    report(key, `blocked: ${messageOf(error)}`);
  }
}
report('done', 'yes');

function clickAnchor(href, targetName) {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.target = targetName;
  document.body.append(anchor);
  anchor.click();
}

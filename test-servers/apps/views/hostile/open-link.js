// Hostile: asks the host to open links that are not https, spelled the ways
// URL filters get wrong.
import { attempt, connectView, report } from '../view-kit.js';

const app = await connectView('hostile-open-link');
if (app !== undefined) {
  const links = {
    javascript: 'javascript:alert(document.domain)',
    'javascript-mixed-case': 'JaVaScRiPt:alert(1)',
    'javascript-leading-space': ' javascript:alert(1)',
    'javascript-tab': 'java\tscript:alert(1)',
    data: 'data:text/html,<script>alert(1)</script>',
    file: 'file:///etc/passwd',
    vbscript: 'vbscript:msgbox(1)',
    http: 'http://example.com/plain-http',
  };
  for (const [key, url] of Object.entries(links)) await attempt(key, () => app.openLink({ url }));
  report('done', 'yes');
}

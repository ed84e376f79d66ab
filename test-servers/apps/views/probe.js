// The CSP probe view of `show-csp` and `show-no-csp`: it tries a fetch and an
// image from an origin the resource declares and from one it does not, and
// reports `allowed` or `blocked` for each (the server also counts the hits).
import { connectView, report } from './view-kit.js';

/** @type {{ declared: string, undeclared: string }} written into the page by the server */
const config = JSON.parse(document.getElementById('probe-config')?.textContent ?? '{}');

const app = await connectView('apps-test-probe');

if (app !== undefined) {
  await Promise.all(
    Object.entries(config).flatMap(([name, origin]) => [
      probeFetch(`connect-${name}`, `${origin}/probe/connect?from=${name}`),
      probeImage(`image-${name}`, `${origin}/probe/pixel.png?from=${name}`),
    ]),
  );
  report('done', 'yes');
}

async function probeFetch(key, url) {
  try {
    const response = await fetch(url);
    report(key, `allowed: ${response.status}`);
  } catch {
    report(key, 'blocked');
  }
}

function probeImage(key, url) {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(report(key, 'allowed'));
    image.onerror = () => resolve(report(key, 'blocked'));
    image.src = url;
    document.body.append(image);
  });
}

/**
 * The apps test server's views: each a small browser module in views/,
 * bundled with esbuild (the real ext-apps `App` class and its dependencies
 * inlined) into one self-contained HTML page, since a view loaded by a sandbox
 * proxy has no origin to fetch its script from. One esbuild run builds every
 * view (a second or so); the result is kept for the life of the process.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** View name → its source under views/. */
export const VIEW_SOURCES = {
  counter: 'counter.js',
  probe: 'probe.js',
  'navigate-top': 'hostile/navigate-top.js',
  popup: 'hostile/popup.js',
  'read-parent': 'hostile/read-parent.js',
  flood: 'hostile/flood.js',
  oversized: 'hostile/oversized.js',
  garbage: 'hostile/garbage.js',
  'call-model-only': 'hostile/call-model-only.js',
  'open-link': 'hostile/open-link.js',
  'never-initialize': 'hostile/never-initialize.js',
  silent: 'hostile/silent.js',
};

/** @type {Promise<Map<string, string>> | undefined} */
let bundles;

/**
 * The bundled script of every view, by name; built once per process.
 * @returns {Promise<Map<string, string>>}
 */
export function viewBundles() {
  bundles ??= bundleViews();
  return bundles;
}

async function bundleViews() {
  const directory = fileURLToPath(new URL('./views/', import.meta.url));
  const { outputFiles } = await build({
    entryPoints: Object.entries(VIEW_SOURCES).map(([out, source]) => ({ in: directory + source, out })),
    bundle: true,
    write: false,
    outdir: '/views',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const scripts = new Map();
  for (const file of outputFiles) {
    const name = file.path.slice('/views/'.length, -'.js'.length);
    // Inlined in a <script>: a literal "</script" would end it early.
    if (/<\/script/i.test(file.text)) throw new Error(`apps test server: view ${name} contains "</script"`);
    scripts.set(name, file.text);
  }
  return scripts;
}

/**
 * One view as the HTML document a `ui://` resource returns.
 * @param {string} name a key of VIEW_SOURCES
 * @param {{ title?: string, data?: Record<string, unknown> }} [options] `data` is written into the page as
 *   `<script type="application/json" id="<name>-config">` for the view to read
 * @returns {Promise<string>}
 */
export async function viewHtml(name, { title = name, data } = {}) {
  const script = (await viewBundles()).get(name);
  if (script === undefined) throw new Error(`apps test server: no view named ${name}`);
  const config =
    data === undefined
      ? ''
      : `<script type="application/json" id="${name}-config">${JSON.stringify(data).replaceAll('<', '\\u003c')}</script>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${title}</title>`,
    '<style>body{font:14px system-ui,sans-serif;margin:8px}[data-theme=dark] body{background:#111;color:#eee}</style>',
    `</head><body><div id="status">loading</div>${config}`,
    `<script type="module">${script}</script>`,
    '</body></html>',
  ].join('');
}

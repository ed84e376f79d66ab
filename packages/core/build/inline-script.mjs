import { readFileSync } from 'node:fs';

const MARKER = /<script>\s*\/\* sandbox-proxy\.ts \*\/\s*<\/script>/;

/**
 * Emits `fileName`, the HTML `template` with the bundle's one entry inlined as
 * its script, in place of the entry's .js: a page that works as one static file.
 * A script holding `</script` or `<!--` would end or confuse the element, so the
 * build fails on one rather than ship a broken page.
 */
export function inlineScriptInto(template, fileName) {
  return {
    name: 'inline-script-into',
    generateBundle(_options, bundle) {
      const entries = Object.values(bundle).filter((chunk) => chunk.type === 'chunk' && chunk.isEntry);
      if (entries.length !== 1) this.error(`expected one entry to inline, got ${entries.length}`);
      const [entry] = entries;
      const code = entry.code.trim();
      if (/<\/script|<!--/i.test(code)) this.error(`${entry.fileName} holds </script or <!--; it cannot be inlined`);
      const html = readFileSync(template, 'utf8');
      if (!MARKER.test(html)) this.error(`${template} has no /* sandbox-proxy.ts */ script to replace`);
      delete bundle[entry.fileName];
      this.emitFile({ type: 'asset', fileName, source: html.replace(MARKER, () => `<script>${code}</script>`) });
    },
  };
}

/**
 * How the sandbox proxy builds the view's own iframe: its `sandbox` tokens and
 * the document it loads, with the CSP in front of everything the view wrote.
 */

/** Tokens the host may add to the view's sandbox; anything else asked for is dropped. */
const OPTIONAL_TOKENS = new Set(['allow-forms', 'allow-popups']);

/**
 * The view iframe's `sandbox` attribute: always `allow-scripts`, plus
 * `allow-forms` and `allow-popups` when the host asks. Never `allow-same-origin`
 * (scripts beside it could lift the sandbox), never top navigation, modals,
 * downloads or popups that escape the sandbox.
 */
export function viewSandbox(requested: string | undefined): string {
  const tokens = new Set(['allow-scripts']);
  for (const token of (requested ?? '').toLowerCase().split(/\s+/)) {
    if (OPTIONAL_TOKENS.has(token)) tokens.add(token);
  }
  return [...tokens].join(' ');
}

const DOCTYPE = /^[\uFEFF\s]*<!doctype[^>]*>/i;

/**
 * The view's HTML with `<meta http-equiv="Content-Security-Policy">` as its
 * first element, after the doctype if it starts with one. The parser then puts
 * it in the head before anything of the view's, so the policy holds for every
 * script, style and request the view makes; a second policy the view adds can
 * only narrow it. A doctype token always ends at its first `>`, so no doctype
 * can swallow the tag.
 */
export function withCsp(html: string, csp: string): string {
  const escaped = csp.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escaped}">`;
  const doctype = DOCTYPE.exec(html)?.[0] ?? '';
  return doctype + meta + html.slice(doctype.length);
}

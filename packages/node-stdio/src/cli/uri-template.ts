/**
 * `mcp read 'file:///{path}' path=notes.txt`: a resource template (2025-11-25,
 * server/resources § Resource Templates) read with its arguments. Only RFC 6570
 * level 1 is expanded: `{name}` becomes the value percent-encoded as UTF-8,
 * every character but the unreserved ones (`A-Z a-z 0-9 - . _ ~`) encoded, so a
 * value can never add a `/`, `?` or `#` of its own to the URI. Expressions of
 * higher levels (`{+x}`, `{/x}`, `{x*}`, `{x,y}`, …) are refused rather than guessed at.
 */
import { UsageError } from './usage-error.js';

const EXPRESSION = /\{([^{}]*)\}/g;
const NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Whether `uri` holds a template expression. */
export function isTemplate(uri: string): boolean {
  return uri.includes('{') || uri.includes('}');
}

/** `name=value` operands as a map; a name given twice, or without `=`, is a usage error. */
export function templateValues(operands: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const operand of operands) {
    const at = operand.indexOf('=');
    if (at <= 0) throw new UsageError(`template arguments are name=value, got "${operand}"`);
    const name = operand.slice(0, at);
    if (values.has(name)) throw new UsageError(`template argument "${name}" given twice`);
    values.set(name, operand.slice(at + 1));
  }
  return values;
}

/**
 * The URI `template` names with `values` put in. Every variable needs a value
 * and every value a variable; a brace that opens no level-1 expression is refused.
 */
export function expandTemplate(template: string, values: ReadonlyMap<string, string>): string {
  const used = new Set<string>();
  const expanded = template.replace(EXPRESSION, (expression, name: string) => {
    if (!NAME.test(name)) {
      throw new UsageError(`${expression}: only simple {name} expressions are expanded (RFC 6570 level 1)`);
    }
    const value = values.get(name);
    if (value === undefined) throw new UsageError(`the template needs ${name}=<value>`);
    used.add(name);
    return encode(value);
  });
  if (isTemplate(expanded)) throw new UsageError(`unbalanced braces in the template "${template}"`);
  const unused = [...values.keys()].filter((name) => !used.has(name));
  if (unused.length > 0) throw new UsageError(`the template has no variable ${unused.join(', ')}`);
  return expanded;
}

/** RFC 6570 §3.2.2 simple string expansion: UTF-8, then every byte outside the unreserved set as %XX. */
function encode(value: string): string {
  // A lone surrogate has no UTF-8 form: encodeURIComponent throws a URIError for it.
  if (/\p{Surrogate}/u.test(value)) throw new UsageError('a template argument holds a lone UTF-16 surrogate');
  // encodeURIComponent leaves ! ' ( ) * as they are; level 1 encodes them too.
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

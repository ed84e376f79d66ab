import { GREETING_NAMES } from './prompts.mjs';
import { itemTemplate, TEMPLATE_IDS } from './resources.mjs';
import { INVALID_PARAMS, rpcError } from './rpc-errors.mjs';

/**
 * The `completion/complete` result (2025-11-25, server/utilities/completion):
 * `greeting`'s `name` and the item template's `id`, filtered by prefix, with
 * `total` and `hasMore` always set. An argument with no completions gets an
 * empty list; an unknown prompt or template is -32602.
 * @param {{ type: string, name?: string, uri?: string }} ref
 * @param {{ name: string, value: string }} argument
 * @returns {{ completion: { values: string[], total: number, hasMore: boolean } }}
 */
export function complete(ref, argument) {
  return { completion: byPrefix(candidates(ref, argument.name), argument.value) };
}

/**
 * @param {{ type: string, name?: string, uri?: string }} ref
 * @param {string} argumentName
 * @returns {readonly string[]}
 */
function candidates(ref, argumentName) {
  if (ref.type === 'ref/prompt' && ref.name === 'greeting') return argumentName === 'name' ? GREETING_NAMES : [];
  if (ref.type === 'ref/prompt' && ref.name === 'with-resource') return [];
  if (ref.type === 'ref/resource' && ref.uri === itemTemplate.uriTemplate)
    return argumentName === 'id' ? TEMPLATE_IDS : [];
  throw rpcError(INVALID_PARAMS, `Unknown completion reference: ${ref.type} ${ref.name ?? ref.uri ?? ''}`.trim());
}

/**
 * @param {readonly string[]} values
 * @param {string} prefix
 */
export function byPrefix(values, prefix) {
  const matches = values.filter((value) => value.startsWith(prefix));
  return { values: matches, total: matches.length, hasMore: false };
}

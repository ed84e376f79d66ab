import { PNG_BASE64, PNG_MIME_TYPE } from './fixtures.mjs';
import { staticResourceContents } from './resources.mjs';
import { INVALID_PARAMS, rpcError } from './rpc-errors.mjs';

/** Values `completion/complete` offers for `greeting`'s `name`. */
export const GREETING_NAMES = Object.freeze(['alice', 'alex', 'bob']);

/** The prompts, in `prompts/list` order, as the wire describes them. */
export const prompts = Object.freeze([
  {
    name: 'greeting',
    title: 'Greeting',
    description: 'A one-message greeting; `name` completes from alice, alex, bob.',
    arguments: [
      { name: 'name', description: 'Who to greet', required: true },
      { name: 'style', description: 'Optional style, appended to the greeting', required: false },
    ],
  },
  {
    name: 'with-resource',
    title: 'With resource',
    description: 'User message with an embedded resource, assistant message with an image, then a user text.',
    arguments: [],
  },
]);

/**
 * The `prompts/get` result.
 * @param {string} name
 * @param {Record<string, string> | undefined} args
 * @returns {{ description: string, messages: { role: string, content: Record<string, unknown> }[] }}
 * @throws -32602 for an unknown prompt or a missing required argument (2025-11-25, server/prompts § Error Handling)
 */
export function getPrompt(name, args = {}) {
  if (name === 'greeting') return greeting(args);
  if (name === 'with-resource') return withResource();
  throw rpcError(INVALID_PARAMS, `Unknown prompt: ${name}`);
}

/** @param {Record<string, string>} args */
function greeting({ name, style }) {
  if (typeof name !== 'string' || name === '') {
    throw rpcError(INVALID_PARAMS, 'Missing required argument: name');
  }
  const text = style ? `Hello, ${name}! (style: ${style})` : `Hello, ${name}!`;
  return { description: 'A greeting', messages: [{ role: 'user', content: { type: 'text', text } }] };
}

function withResource() {
  return {
    description: 'Messages carrying a resource and an image',
    messages: [
      { role: 'user', content: { type: 'resource', resource: staticResourceContents('test://static/text/1') } },
      { role: 'assistant', content: { type: 'image', data: PNG_BASE64, mimeType: PNG_MIME_TYPE } },
      { role: 'user', content: { type: 'text', text: 'What does the resource say?' } },
    ],
  };
}

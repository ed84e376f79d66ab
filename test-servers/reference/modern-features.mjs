import { inputRequired } from '@modelcontextprotocol/server';
import { readCacheHint } from './cache-hints.mjs';
import { paginate } from './pagination.mjs';
import { getPrompt, prompts } from './prompts.mjs';
import { readResource, staticResources } from './resources.mjs';
import { ELICIT_SCHEMA } from './tools-client.mjs';

/**
 * The 2026-07-28 additions of the v2 reference server besides tools: a prompt
 * and a resource that use multi-round-trip (2026-07-28, basic/patterns/mrtr:
 * `prompts/get` and `resources/read` may answer input_required too), listed
 * after the shared ones, and per-URI cache hints on `resources/read`.
 */

/** `mrtr-prompt`: needs an elicitation (key `name`) before it renders. */
export const mrtrPrompt = Object.freeze({
  name: 'mrtr-prompt',
  title: 'MRTR prompt',
  description: 'Asks for a name (elicitation, key "name") before it renders a greeting.',
  arguments: [],
});

/** `test://mrtr/resource`: needs the client's roots (key `roots`) before it can be read. */
export const mrtrResource = Object.freeze({
  uri: 'test://mrtr/resource',
  name: 'mrtr-resource',
  title: 'MRTR resource',
  description: 'Asks for the roots (key "roots") before it can be read; reads as JSON of the roots.',
  mimeType: 'application/json',
});

/**
 * Registers the modern-only list, prompt and read handlers on a v2 server
 * bound to 2026-07-28 (they replace the shared ones, which they call).
 * @param {import('@modelcontextprotocol/server').Server} server
 * @param {number} pageSize
 */
export function installModernFeatures(server, pageSize) {
  server.setRequestHandler('prompts/list', (request) =>
    listPage([...prompts, mrtrPrompt], 'prompts', request, pageSize),
  );
  server.setRequestHandler('resources/list', (request) =>
    listPage([...staticResources, mrtrResource], 'resources', request, pageSize),
  );
  server.setRequestHandler('prompts/get', (request, ctx) => {
    const { name, arguments: args } = request.params;
    if (name !== mrtrPrompt.name) return /** @type {any} */ (getPrompt(name, args));
    const answer = /** @type {any} */ (ctx.mcpReq.inputResponses?.name);
    if (answer === undefined) {
      const ask = inputRequired.elicit({
        mode: 'form',
        message: 'Who should the prompt greet?',
        requestedSchema: ELICIT_SCHEMA,
      });
      return inputRequired({ inputRequests: { name: ask } });
    }
    const greeted = answer.action === 'accept' && typeof answer.content?.name === 'string';
    const text = greeted ? `Hello, ${answer.content.name}!` : `Nobody to greet (${answer.action})`;
    return {
      description: 'A greeting for the elicited name',
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  });
  server.setRequestHandler('resources/read', (request, ctx) => {
    const { uri } = request.params;
    if (uri !== mrtrResource.uri) return /** @type {any} */ ({ ...readResource(uri), ...readCacheHint(uri) });
    const answer = /** @type {any} */ (ctx.mcpReq.inputResponses?.roots);
    if (answer === undefined) return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    const contents = [{ uri, mimeType: mrtrResource.mimeType, text: JSON.stringify(answer.roots) }];
    return { contents, ...readCacheHint(uri) };
  });
}

/**
 * @param {readonly object[]} items
 * @param {string} key
 * @param {{ params?: { cursor?: string } }} request
 * @param {number} pageSize
 */
function listPage(items, key, request, pageSize) {
  const { page, nextCursor } = paginate(items, request.params?.cursor, pageSize);
  return /** @type {any} */ ({ [key]: page, ...(nextCursor && { nextCursor }) });
}

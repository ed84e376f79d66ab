import { complete } from './completions.mjs';
import { paginate } from './pagination.mjs';
import { getPrompt, prompts } from './prompts.mjs';
import { itemTemplate, readResource, resourceExists, staticResources } from './resources.mjs';
import { INVALID_PARAMS, RESOURCE_NOT_FOUND, rpcError } from './rpc-errors.mjs';
import { describeTool } from './tools.mjs';

/**
 * A request handler on plain params, shared by both SDK adapters, which only
 * bind it to their registration API.
 * @typedef {(params: any) => unknown} ParamsHandler
 */

/**
 * The handlers of every request method the profile serves except `tools/call`
 * (which needs the SDK's per-request context). Every profile but `full` has
 * only `tools/list`, so the rest answer -32601 Method not found.
 * @param {import('./connection-state.mjs').ConnectionState} state
 * @returns {Record<string, ParamsHandler>}
 */
export function createHandlers(state) {
  /** @type {<T>(items: readonly T[], key: string) => ParamsHandler} */
  const list = (items, key) => (params) => {
    const { page, nextCursor } = paginate(items, params?.cursor, state.pageSize);
    return { [key]: page, ...(nextCursor && { nextCursor }) };
  };
  const tools = {
    'tools/list': (params) => list([...state.tools.values()].map(describeTool), 'tools')(params),
  };
  if (state.profile !== 'full') return tools;
  return {
    ...tools,
    'resources/list': list(staticResources, 'resources'),
    'resources/templates/list': list([itemTemplate], 'resourceTemplates'),
    'resources/read': (params) => readResource(params.uri),
    'resources/subscribe': ({ uri }) => {
      if (!resourceExists(uri)) throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
      state.subscriptions.add(uri);
      return {};
    },
    'resources/unsubscribe': ({ uri }) => {
      state.subscriptions.delete(uri);
      return {};
    },
    'prompts/list': list(prompts, 'prompts'),
    'prompts/get': (params) => getPrompt(params.name, params.arguments),
    'completion/complete': (params) => complete(params.ref, params.argument),
    'logging/setLevel': ({ level }) => {
      state.logLevel = level;
      return {};
    },
  };
}

/**
 * The registered tool a `tools/call` names.
 * @param {import('./connection-state.mjs').ConnectionState} state
 * @param {string} name
 * @throws -32602 for an unknown tool (2025-11-25, server/tools § Error Handling)
 */
export function findTool(state, name) {
  const tool = state.tools.get(name);
  if (!tool) throw rpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
  return tool;
}

import {
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { addRuntimeTool } from './connection-state.mjs';
import { passesLevel } from './log-levels.mjs';

/** The v1 result schema of each server→client request a tool sends. */
const RESULT_SCHEMAS = {
  'sampling/createMessage': CreateMessageResultWithToolsSchema,
  'elicitation/create': ElicitResultSchema,
  'roots/list': ListRootsResultSchema,
};

/**
 * The {@link import('./tool-context.mjs').ToolContext} of one v1 `tools/call`.
 * Requests and progress go through `extra`, which ties them to the call (over
 * Streamable HTTP they travel on that call's stream); list and resource
 * notifications go through the server, as they concern the whole connection.
 * @param {import('@modelcontextprotocol/sdk/server/index.js').Server} server
 * @param {import('./connection-state.mjs').ConnectionState} state
 * @param {import('@modelcontextprotocol/sdk/shared/protocol.js').RequestHandlerExtra<any, any>} extra
 * @returns {import('./tool-context.mjs').ToolContext}
 */
export function createV1ToolContext(server, state, extra) {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      });
    },
    clientRequest: async (_key, request) => {
      try {
        // Tied to the call: when the client cancels the call, the SDK cancels this request too
        // (notifications/cancelled), as a server should once nobody waits for the answer.
        return { result: await extra.sendRequest(request, RESULT_SCHEMAS[request.method], { signal: extra.signal }) };
      } catch (error) {
        return { error };
      }
    },
    log: async (level, data) => {
      if (!passesLevel(level, state.logLevel)) return;
      await extra.sendNotification({ method: 'notifications/message', params: { level, logger: 'reference', data } });
    },
    resourceUpdated: async (uri) => {
      if (state.subscriptions.has(uri)) await server.sendResourceUpdated({ uri });
    },
    elicitationComplete: async (elicitationId) => {
      await extra.sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId } });
    },
    addTool: async (makeTool) => {
      addRuntimeTool(state, makeTool);
      await server.sendToolListChanged();
    },
  };
}

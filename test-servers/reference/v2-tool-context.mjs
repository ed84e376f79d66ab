import { inputRequired } from '@modelcontextprotocol/server';
import { addRuntimeTool } from './connection-state.mjs';

/** The v2 builder of each server→client request a tool sends, as a multi-round-trip input request. */
const INPUT_REQUESTS = {
  'sampling/createMessage': (params) => inputRequired.createMessage(params),
  'elicitation/create': (params) => inputRequired.elicit(params),
  'roots/list': () => inputRequired.listRoots(),
};

/**
 * The {@link import('./tool-context.mjs').ToolContext} of one v2 `tools/call`.
 * Client requests use multi-round-trip (2026-07-28, basic/patterns/mrtr): the
 * first round returns an InputRequiredResult, the retry carries the client's
 * answer in `inputResponses`, and the tool runs again from the start and finds
 * it. On a 2025-era connection the SDK's legacy shim turns the same
 * InputRequiredResult into real server→client requests.
 * @param {import('@modelcontextprotocol/server').Server} server
 * @param {import('./connection-state.mjs').ConnectionState} state
 * @param {import('@modelcontextprotocol/server').ServerContext} ctx
 * @returns {import('./tool-context.mjs').ToolContext}
 */
export function createV2ToolContext(server, state, ctx) {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    signal: ctx.mcpReq.signal,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      });
    },
    clientRequest: async (key, request) => {
      const response = ctx.mcpReq.inputResponses?.[key];
      if (response !== undefined) return { result: response };
      return { suspend: inputRequired({ inputRequests: { [key]: INPUT_REQUESTS[request.method](request.params) } }) };
    },
    // The SDK filters by the level the client asked for, per era: logging/setLevel
    // on 2025 connections, the request's own log level on 2026-07-28.
    log: (level, data) => ctx.mcpReq.log(level, data, 'reference'),
    // 2026-07-28 has no resources/subscribe: the SDK delivers the notification to
    // the subscriptions/listen streams whose resourceSubscriptions name the URI.
    resourceUpdated: async (uri) => {
      if (ctx.mcpReq.envelope !== undefined || state.subscriptions.has(uri)) await server.sendResourceUpdated({ uri });
    },
    addTool: async (makeTool) => {
      addRuntimeTool(state, makeTool);
      await server.sendToolListChanged();
    },
  };
}

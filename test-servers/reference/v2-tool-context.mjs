import { inputRequired } from '@modelcontextprotocol/server';
import { addRuntimeTool } from './connection-state.mjs';

/** The v2 builder of each server→client request a tool sends, as a multi-round-trip input request. */
const INPUT_REQUESTS = {
  'sampling/createMessage': (/** @type {any} */ params) => inputRequired.createMessage(params),
  'elicitation/create': (/** @type {any} */ params) => inputRequired.elicit(params),
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
 * @param {import('./modern-hub.mjs').ModernHub} [hub] present on 2026-07-28
 * @returns {import('./tool-context.mjs').ToolContext}
 */
export function createV2ToolContext(server, state, ctx, hub) {
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
    log: (level, data) => ctx.mcpReq.log(/** @type {any} */ (level), data, 'reference'),
    // 2026-07-28 has no resources/subscribe: the notification goes to the
    // subscriptions/listen streams whose resourceSubscriptions name the URI
    // (the SDK's stdio router filters the server's own notification; on HTTP
    // the hub publishes on the handler's event bus).
    resourceUpdated: async (uri) => {
      if (ctx.mcpReq.envelope === undefined && !state.subscriptions.has(uri)) return;
      if (hub?.notifier) hub.notifier.resourceUpdated(uri);
      else await server.sendResourceUpdated({ uri });
    },
    addTool: async (makeTool) => {
      addRuntimeTool(state, makeTool);
      if (hub?.notifier) hub.notifier.toolsChanged();
      else await server.sendToolListChanged();
    },
    httpHeaders: () => ctx.http?.req?.headers,
    ...(hub && {
      requestCounts: hub.counts,
      mrtr: {
        responses: ctx.mcpReq.inputResponses ?? {},
        requestState: /** @type {string | undefined} */ (ctx.mcpReq.requestState()),
        suspend: ({ inputRequests, requestState }) =>
          inputRequired({
            ...(inputRequests && {
              inputRequests: Object.fromEntries(
                Object.entries(inputRequests).map(([key, request]) => [
                  key,
                  INPUT_REQUESTS[request.method](request.params),
                ]),
              ),
            }),
            ...(requestState !== undefined && { requestState }),
          }),
        states: hub.states,
      },
    }),
  };
}

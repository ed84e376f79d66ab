import { writeEndless } from './wire.mjs';

/**
 * The 2024-11-05 HTTP+SSE transport (`?era=sse`), where one stream carries
 * every answer of the session: an endpoint event that points away, none at
 * all, or a line on the session stream that never ends.
 */

export const SSE_FAULTS = {
  'sse-endpoint-elsewhere': {
    family: 'http+sse',
    summary: "the endpoint event names another origin (the client's credentials would follow its POSTs)",
    sse: { endpoint: (ctx) => `${ctx.otherOrigin}/elsewhere/${ctx.endpointId}/mcp` },
  },
  'sse-endpoint-javascript': {
    family: 'http+sse',
    summary: 'the endpoint event names a javascript: URL',
    sse: { endpoint: () => 'javascript:alert(1)' },
  },
  'sse-no-endpoint': {
    family: 'http+sse',
    summary: 'the session stream opens and never sends its endpoint event',
    sse: { endpoint: () => undefined },
  },
  'sse-endless-line': {
    family: 'http+sse',
    summary: 'answers the call with a line on the session stream that never ends',
    sse: { call: (ctx, stream) => writeEndless(stream, ctx.stats, 'event: message\ndata: ') },
  },
};

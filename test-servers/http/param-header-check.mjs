import { headerDeclarations, paramHeaderMismatch } from '../reference/mcp-param-headers.mjs';
import { describeTool } from '../reference/tools.mjs';

/** 2026-07-28 `HeaderMismatch` (basic/transports § Streamable HTTP). */
const HEADER_MISMATCH = -32020;

/**
 * The 400 / -32020 answer to a 2026-07-28 `tools/call` whose `Mcp-Param-*`
 * headers disagree with its arguments, or undefined when they agree or the
 * tool declares no (valid) `x-mcp-header`. The v2 SDK makes this check only
 * for `McpServer` tools; the reference server is a low-level `Server`, so the
 * `/v2` route makes it in front of the SDK handler.
 * @param {any} body the parsed JSON-RPC request
 * @param {Headers} headers
 * @param {import('../reference/connection-state.mjs').ConnectionState} state the tools the request would reach
 * @returns {Response | undefined}
 */
export function paramHeaderRejection(body, headers, state) {
  if (body?.method !== 'tools/call') return undefined;
  const tool = state.tools.get(body.params?.name);
  if (tool === undefined) return undefined;
  const declarations = headerDeclarations(describeTool(tool).inputSchema);
  if (declarations === undefined || declarations.length === 0) return undefined;
  const mismatch = paramHeaderMismatch(declarations, body.params?.arguments, headers);
  if (mismatch === undefined) return undefined;
  const error = {
    code: HEADER_MISMATCH,
    message: `Bad Request: header ${mismatch.header} ${mismatch.problem}`,
    data: { mismatch: { header: mismatch.header, body: mismatch.problem } },
  };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, error }), {
    status: 400,
    headers: { 'content-type': 'application/json' },
  });
}

// One tool call for a caller, on the MCP session kept in a snapshot store.
import { withMcpSession } from './mcp-session.js';

/**
 * Calls the tool named in the request's query and answers with its text, plus
 * the session id the call used (to make the session visible in this example).
 * @param {Request} request
 * @param {string} mcpUrl
 * @param {import('./mcp-session.js').SnapshotStore} store
 */
export async function callTool(request, mcpUrl, store) {
  const query = new URL(request.url).searchParams;
  const tool = query.get('tool');
  if (!tool) return Response.json({ error: 'missing ?tool=' }, { status: 400 });
  const args = Object.fromEntries([...query].filter(([name]) => name !== 'tool'));
  try {
    return await withMcpSession(mcpUrl, store, async (client) => {
      const result = await client.callTool(tool, args);
      return Response.json({ text: result.text, isError: result.isError, sessionId: client.session?.sessionId });
    });
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 502 });
  }
}

// A Cloudflare Worker running an AI agent over an MCP server: one Durable
// Object per user (class AgentObject, binding AGENT) keeps the MCP session, the
// OAuth tokens and the background tasks, and answers each message with an AI
// SDK tool loop (`generateText` over `mcpToolSet(client)` and two tools of its
// own for tasks that outlive the invocation).
//
//   POST /chat/<user>                  body {"message": "…"} → {text, finishReason, steps, toolCalls}
//                                      or 401 {authorize: url} when the MCP server wants authorization
//   GET  /callback/<user>?code&state   the OAuth redirect URI → {authorized: true}
//
// Variables: MCP_URL, MODEL_BASE_URL, MODEL_API_KEY (a secret), MODEL_ID.
export { AgentObject } from './agent-object.js';

/** What a user name may be: it names the object and goes into the redirect URI. */
const USER = /^[A-Za-z0-9_-]{1,64}$/;

export default {
  /** @param {Request} request @param {{ AGENT: DurableObjectNamespace }} env */
  fetch(request, env) {
    const [, route, user = ''] = new URL(request.url).pathname.split('/');
    if (route !== 'chat' && route !== 'callback') return Response.json({ error: 'not found' }, { status: 404 });
    if (!USER.test(user))
      return Response.json({ error: 'the user name must match [A-Za-z0-9_-]{1,64}' }, { status: 400 });
    // One object per user: its requests run in one place, whichever invocation sends them.
    return env.AGENT.get(env.AGENT.idFromName(user)).fetch(request);
  },
};

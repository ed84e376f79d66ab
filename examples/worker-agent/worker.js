// A Cloudflare Worker running an AI agent over an MCP server: one Durable
// Object per user (class AgentObject, binding AGENT) keeps the MCP session, the
// OAuth tokens and the background tasks, and answers each message with an AI
// SDK tool loop (`generateText` over `mcpToolSet(client)` and two tools of its
// own for tasks that outlive the invocation).
//
// The user comes from a verified credential only (identity.js): a Cloudflare
// Access token, or a session cookie from `POST /login`. No route names a user.
//
//   POST /chat                 body {"message": "…"} → {text, finishReason, steps, toolCalls}
//                              or 401 {authorize: url} when the MCP server wants authorization
//   GET  /callback?code&state  the OAuth redirect URI → {authorized: true}
//   POST /login                body {"user": "…"}, Authorization: Bearer <SESSION_SECRET> → a session cookie
//                              (404 unless SESSION_SECRET is set)
//
// Variables: MCP_URL, MODEL_BASE_URL, MODEL_API_KEY (a secret), MODEL_ID; ACCESS_TEAM_DOMAIN and ACCESS_AUD,
// or SESSION_SECRET (a secret); optional bounds MAX_TURN_MS, MAX_QUEUE, RATE_PER_MINUTE, SESSION_TTL_SECONDS.
import { identify } from './identity.js';
import { login } from './login.js';

export { AgentObject } from './agent-object.js';

export default {
  /** @param {Request} request @param {{ AGENT: DurableObjectNamespace } & import('./identity.js').IdentityEnv} env */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/login') return login(request, env);
    if (pathname !== '/chat' && pathname !== '/callback') return Response.json({ error: 'not found' }, { status: 404 });
    const caller = await identify(request, env);
    if (!('user' in caller)) return Response.json({ error: caller.error }, { status: caller.status });
    // One object per user: its requests run in one place, whichever invocation sends them.
    return env.AGENT.get(env.AGENT.idFromName(caller.user)).fetch(request);
  },
};

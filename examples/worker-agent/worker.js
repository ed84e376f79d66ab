// A Cloudflare Worker running an AI agent over MCP servers: one Durable Object
// per user (class AgentObject, binding AGENT) holds the user's servers (a
// Servers set keeping configs, sessions and OAuth tokens in the object's
// storage) and background tasks, and answers each message with an AI SDK tool
// loop (`generateText` over `mcpToolSet(servers)` and two tools of its own for
// tasks that outlive the invocation).
//
// The user comes from a verified credential only (identity.js): a Cloudflare
// Access token, or a session cookie from `POST /login`. No route names a user.
//
//   POST /chat                 body {"message": "…"} → {text, finishReason, steps, toolCalls, authorize?}
//                              or 401 {authorize: {<server>: url}} when no server is ready and some want sign-in
//   GET  /callback?code&state  the OAuth redirect URI → {authorized: true}
//   GET  /servers              the user's servers → {servers: [{name, url, status, authorize?, error?, tools}]}
//   POST /servers              body {"name", "url", "headers"?} → 201 {server}
//   DELETE /servers/<name>     → {removed: name}
//   POST /login                body {"user": "…"}, Authorization: Bearer <SESSION_SECRET> → a session cookie
//                              (404 unless SESSION_SECRET is set)
//
// Variables: MODEL_BASE_URL, MODEL_API_KEY (a secret), MODEL_ID; ACCESS_TEAM_DOMAIN and ACCESS_AUD, or
// SESSION_SECRET (a secret); optionally MCP_URL (the operator's server, `main` in every user's set) and
// SERVER_ORIGINS (where users may add servers); optional bounds MAX_TURN_MS, MAX_QUEUE, RATE_PER_MINUTE,
// SESSION_TTL_SECONDS, MAX_SERVERS.
import { identify } from './identity.js';
import { login } from './login.js';

export { AgentObject } from './agent-object.js';

export default {
  /** @param {Request} request @param {{ AGENT: DurableObjectNamespace } & import('./identity.js').IdentityEnv} env */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/login') return login(request, env);
    const agentRoute = ['/chat', '/callback', '/servers'].includes(pathname) || pathname.startsWith('/servers/');
    if (!agentRoute) return Response.json({ error: 'not found' }, { status: 404 });
    const caller = await identify(request, env);
    if (!('user' in caller)) return Response.json({ error: caller.error }, { status: caller.status });
    // One object per user: its requests run in one place, whichever invocation sends them.
    return env.AGENT.get(env.AGENT.idFromName(caller.user)).fetch(request);
  },
};

// A Cloudflare Worker that starts long MCP tool calls as tasks and collects
// their results in later invocations. Each caller's jobs live in that caller's
// Durable Object (task-object.js), so no invocation waits for the work, and
// none needs the process that started it.
//
//   POST /start?job=j    body {"tool": "slow-steps", "arguments": {"steps": 3}}   → 202 {taskId, status}
//   GET  /collect?job=j  → {taskId, status, statusMessage?} while working; plus {text, isError} once completed
//   POST /cancel?job=j   → {taskId, status}
//   POST /forget?job=j   → {forgotten}: cancels the task if it has not ended, and frees the job's place
//   POST /login?name=ann with Authorization: Bearer <SESSION_SECRET> → a session cookie
//
// The caller comes from the session cookie only (the sign-in of examples/oauth-worker), never from the path,
// the query or the body. Variables: MCP_URL; SESSION_SECRET (a secret, at least 32 characters; unset, every
// request is 401); optional bounds MAX_JOBS and MAX_QUEUE. The objects' binding is MCP_TASKS.
import { callerOf, login } from '../oauth-worker/caller.js';

export { McpTaskObject } from './task-object.js';

/** What a job's name may be: it names a task within its caller's object. */
const JOB = /^[A-Za-z0-9_-]{1,64}$/;

const ROUTES = new Set(['/start', '/collect', '/cancel', '/forget']);

export default {
  /** @param {Request} request @param {{ MCP_TASKS: DurableObjectNamespace, SESSION_SECRET?: string }} env */
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/login') return login(request, env.SESSION_SECRET);
    if (!ROUTES.has(url.pathname)) return Response.json({ error: 'not found' }, { status: 404 });
    const caller = await callerOf(request, env.SESSION_SECRET);
    if (caller === undefined) return Response.json({ error: 'sign in first (POST /login)' }, { status: 401 });
    const job = url.searchParams.get('job') ?? '';
    if (!JOB.test(job)) return Response.json({ error: '?job= must be 1-64 of A-Z a-z 0-9 _ -' }, { status: 400 });
    // One object per caller: a job's name reaches only its owner's jobs, and its requests run in one place,
    // whichever invocation sends them.
    return env.MCP_TASKS.get(env.MCP_TASKS.idFromName(caller)).fetch(request);
  },
};

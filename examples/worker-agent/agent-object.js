// One agent per user: a Durable Object that holds the user's MCP servers (a
// Servers set over the object's storage) and background tasks, and answers each
// message with an AI SDK tool loop over the tools of every ready server.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { mcpToolSet } from '@mcp/ai-sdk';
import { foldSourceName } from '@mcp/core/connections';
import { generateText, stepCountIs } from 'ai';
import { backgroundTools } from './background-tools.js';
import { loadTasks, saveTasks } from './durable-state.js';
import { envLimit } from './env-limit.js';
import { discardBody, parseJson, readCapped } from './request-body.js';
import { refusedServerUrl } from './server-url.js';
import { TokenBucket } from './token-bucket.js';
import {
  authorizations,
  CONNECT_WAIT_MS,
  finishCallback,
  OPERATOR_SERVER,
  openServers,
  serverView,
  setRefusal,
} from './user-servers.js';

/** Model steps per message (each a model call, most followed by tool calls); the loop stops there. */
export const MAX_STEPS = 8;

/** Longest message accepted, in characters; a longer one gets 413 before anything else runs. */
export const MAX_MESSAGE_CHARS = 8_000;

/** Largest request body read, in bytes (a message at the limit, escaped, fits); past it, 413 and the rest unread. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Longest one message's tool loop may run, in ms (model calls and tool calls together). Past it the loop is
 * aborted (running tool calls are cancelled on the server) and the answer is `504`. The `MAX_TURN_MS`
 * variable lowers or raises it.
 */
export const MAX_TURN_MS = 60_000;

/**
 * Requests one user's object holds at once, the running one included; one more is answered `429` at once.
 * The `MAX_QUEUE` variable changes it.
 */
export const MAX_QUEUE = 4;

/**
 * Requests a minute one user may send (messages and callbacks; a burst may spend the whole minute's);
 * past it, `429` with `Retry-After`. The `RATE_PER_MINUTE` variable changes it.
 */
export const RATE_PER_MINUTE = 20;

const SYSTEM =
  'You are an assistant with the tools of an MCP server. For long work use background_start, ' +
  'and background_check in a later turn to collect the result.';

/**
 * @typedef {object} Env
 * @property {string} [MCP_URL] the operator's MCP server (Streamable HTTP), in every user's set as `main`
 * @property {string} [SERVER_ORIGINS] the origins users may add servers at (else any public https: host)
 * @property {string} [MAX_SERVERS] overrides the servers a user may hold (a positive integer)
 * @property {string} MODEL_BASE_URL an OpenAI-compatible API, e.g. https://api.example.com/v1
 * @property {string} [MODEL_API_KEY] sent as `Authorization: Bearer …`
 * @property {string} MODEL_ID the model to ask for
 * @property {string} [MAX_TURN_MS] overrides {@link MAX_TURN_MS} (a positive integer)
 * @property {string} [MAX_QUEUE] overrides {@link MAX_QUEUE} (a positive integer)
 * @property {string} [RATE_PER_MINUTE] overrides {@link RATE_PER_MINUTE} (a positive integer)
 */

export class AgentObject {
  #queue = Promise.resolve();
  /** Requests taken and not yet answered, the running one included. */
  #held = 0;
  #maxQueue;
  #rate;
  /**
   * The user's servers, opened at the first request after the object started (a wake from hibernation,
   * a deploy) and kept while it lives; made again if a request comes through another origin, whose
   * redirect URI the OAuth flows must name.
   * @type {{ origin: string, servers: Promise<import('@mcp/core/connections').Servers> } | undefined}
   */
  #set;

  /** @param {DurableObjectState} ctx @param {Env} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.#maxQueue = envLimit(env.MAX_QUEUE, MAX_QUEUE);
    this.#rate = new TokenBucket(envLimit(env.RATE_PER_MINUTE, RATE_PER_MINUTE));
  }

  /**
   * One request at a time, so two messages never run a tool loop on the same
   * servers and task list at once; at most `MAX_QUEUE` held, and
   * `RATE_PER_MINUTE` a minute. Routes: `POST /chat` `{message}`,
   * `GET /callback?code=…&state=…`, `GET /servers`, `POST /servers` `{name, url, headers?}`,
   * `DELETE /servers/<name>`. The Worker sends here only requests of
   * this object's user: every one it holds acts for that user.
   * @param {Request} request
   */
  fetch(request) {
    if (this.#held >= this.#maxQueue) {
      return refuse(request, tooMany(`${this.#maxQueue} requests of this user are already running or waiting`, 1_000));
    }
    const wait = this.#rate.take();
    if (wait > 0) {
      return refuse(
        request,
        tooMany(`over ${envLimit(this.env.RATE_PER_MINUTE, RATE_PER_MINUTE)} requests a minute`, wait),
      );
    }
    this.#held++;
    const run = this.#queue.then(() => this.#route(request)).finally(() => this.#held--);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** @param {Request} request */
  async #route(request) {
    const url = new URL(request.url);
    const { method } = request;
    // One redirect URI for every user: the pending authorization in this object's storage binds a callback
    // to this user and to the flow it started.
    if (url.pathname === '/chat' && method === 'POST') return this.#chat(request, url.origin);
    if (url.pathname === '/callback' && method === 'GET') return this.#callback(url);
    if (url.pathname === '/servers' && method === 'GET') return this.#listServers(url.origin);
    if (url.pathname === '/servers' && method === 'POST') return this.#addServer(request, url.origin);
    if (url.pathname.startsWith('/servers/') && method === 'DELETE') {
      await discardBody(request, MAX_BODY_BYTES);
      return this.#removeServer(url);
    }
    return refuse(request, Response.json({ error: 'not found' }, { status: 404 }));
  }

  /**
   * The user's set: restored from this object's storage with no handshake for a session still alive.
   * @param {string} origin
   */
  #servers(origin) {
    if (this.#set?.origin !== origin) {
      const previous = this.#set?.servers;
      const opening = (async () => {
        // Closing keeps the sessions and the configs in storage: the new set resumes them.
        await (await previous?.catch(() => undefined))?.close();
        return openServers(this.ctx.storage, this.env, origin);
      })();
      this.#set = { origin, servers: opening };
      // A set that failed to open is opened again by the next request.
      opening.catch(() => {
        if (this.#set?.servers === opening) this.#set = undefined;
      });
    }
    return this.#set.servers;
  }

  /**
   * Answers one message: wait for the servers to settle (a failed one is tried again), run the tool
   * loop over the tools of the ready ones, store the tasks if they changed. A server waiting for the
   * user to sign in is reported with its URL (`authorize`), and the answer is `401` when no server is
   * ready but some wait for sign-in.
   * @param {Request} request
   * @param {string} origin
   */
  async #chat(request, origin) {
    const text = await readCapped(request, MAX_BODY_BYTES);
    if (text === undefined) return Response.json({ error: `body over ${MAX_BODY_BYTES} bytes` }, { status: 413 });
    const message = parseJson(text)?.message;
    if (typeof message !== 'string' || message === '') {
      return Response.json({ error: 'the body must be {"message": "<text>"}' }, { status: 400 });
    }
    if (message.length > MAX_MESSAGE_CHARS) {
      return Response.json({ error: `message over ${MAX_MESSAGE_CHARS} characters` }, { status: 413 });
    }

    const storage = this.ctx.storage;
    const [servers, tasks] = await Promise.all([this.#servers(origin), loadTasks(storage)]);
    const tasksBefore = JSON.stringify(tasks);
    const turnMs = turnLimit(this.env);
    const deadline = AbortSignal.timeout(turnMs);
    try {
      for (const connection of servers.list()) {
        if (connection.getSnapshot().state.status === 'failed') void connection.reconnect();
      }
      const snapshot = await servers.ready({ timeout: Math.min(CONNECT_WAIT_MS, turnMs) });
      const authorize = authorizations(snapshot);
      const signingIn = Object.keys(authorize).length > 0;
      if (signingIn && !snapshot.servers.some((server) => server.state.status === 'ready')) {
        return Response.json({ authorize }, { status: 401 });
      }
      const tools = { ...(await mcpToolSet(servers)), ...backgroundTools(servers, tasks) };
      const result = await generateText({
        model: this.#model(),
        system: SYSTEM,
        prompt: message,
        tools,
        stopWhen: stepCountIs(MAX_STEPS),
        // The caller going away, or the turn running past its bound, ends the loop.
        abortSignal: AbortSignal.any([request.signal, deadline]),
      });
      return Response.json({
        text: result.text,
        finishReason: result.finishReason,
        steps: result.steps.length,
        toolCalls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
        ...(signingIn && { authorize }),
      });
    } catch (error) {
      if (deadline.aborted) return Response.json({ error: `the turn ran past ${turnMs} ms` }, { status: 504 });
      const { name, message: detail } = /** @type {Error} */ (error);
      return Response.json({ error: `${name}: ${detail}` }, { status: 502 });
    } finally {
      if (JSON.stringify(tasks) !== tasksBefore) await saveTasks(storage, tasks);
    }
  }

  /**
   * The redirect URI: the flow that issued the callback's `state` in this object takes it, checks
   * `iss`, redeems the code and stores the tokens. A `state` this user's flows did not issue is
   * found nowhere here: refused, with nothing stored and no other user's pending authorization touched.
   * @param {URL} url
   */
  async #callback(url) {
    const servers = await this.#servers(url.origin);
    try {
      await finishCallback(this.ctx.storage, servers, url);
    } catch (error) {
      return Response.json({ error: `${error.name}: ${error.message}` }, { status: 400 });
    }
    return Response.json({ authorized: true });
  }

  /**
   * `GET /servers`: each server's state once settled (at most `CONNECT_WAIT_MS`), its tools, and the URL
   * to sign in at when it waits for that.
   * @param {string} origin
   */
  async #listServers(origin) {
    const servers = await this.#servers(origin);
    const snapshot = await servers.ready({ timeout: CONNECT_WAIT_MS });
    return Response.json({ servers: snapshot.servers.map((server) => serverView(servers, server)) });
  }

  /**
   * `POST /servers` `{name, url, headers?}`: adds a server to this user's set, connects it, and answers
   * `201` with its state once it settled (with `authorize` when it wants sign-in). The set checks the
   * name (it names keys in this object's storage and prefixes tool names), the headers and the size;
   * this checks the URL against `SERVER_ORIGINS` and keeps `main` for the operator.
   * @param {Request} request
   * @param {string} origin
   */
  async #addServer(request, origin) {
    const text = await readCapped(request, MAX_BODY_BYTES);
    if (text === undefined) return Response.json({ error: `body over ${MAX_BODY_BYTES} bytes` }, { status: 413 });
    const body = parseJson(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return Response.json({ error: 'the body must be {"name": "…", "url": "…", "headers"?: {…}}' }, { status: 400 });
    }
    const { name, url, headers } = body;
    if (isOperatorServer(name)) return operatorsOwn();
    const refused = refusedServerUrl(url, this.env.SERVER_ORIGINS);
    if (refused) return Response.json({ error: refused }, { status: 400 });
    const servers = await this.#servers(origin);
    try {
      await servers.add({ name, url, ...(headers !== undefined && { headers }), oauth: true });
    } catch (error) {
      const { status, error: reason } = setRefusal(error);
      return Response.json({ error: reason }, { status });
    }
    const snapshot = await servers.ready({ timeout: CONNECT_WAIT_MS });
    const added = snapshot.servers.find((server) => server.name === name);
    return Response.json({ server: added && serverView(servers, added) }, { status: 201 });
  }

  /**
   * `DELETE /servers/<name>`: removes the server, ending its session and deleting its config and session.
   * @param {URL} url
   */
  async #removeServer(url) {
    let name;
    try {
      name = decodeURIComponent(url.pathname.slice('/servers/'.length));
    } catch {
      return Response.json({ error: 'the server name is not valid percent-encoding' }, { status: 400 });
    }
    if (isOperatorServer(name)) return operatorsOwn();
    const servers = await this.#servers(url.origin);
    if (!(await servers.remove(name))) return Response.json({ error: 'no server has that name' }, { status: 404 });
    return Response.json({ removed: name });
  }

  #model() {
    const { MODEL_BASE_URL, MODEL_API_KEY, MODEL_ID } = this.env;
    const provider = createOpenAICompatible({
      name: 'model',
      baseURL: MODEL_BASE_URL,
      ...(MODEL_API_KEY && { apiKey: MODEL_API_KEY }),
      includeUsage: true,
    });
    return provider(MODEL_ID);
  }
}

/**
 * The turn's bound: `env.MAX_TURN_MS` when it is a positive integer, else {@link MAX_TURN_MS}.
 * @param {Env} env
 */
const turnLimit = (env) => envLimit(env.MAX_TURN_MS, MAX_TURN_MS);

/**
 * `response`, once the body of the request it refuses has been read and dropped (at most
 * `MAX_BODY_BYTES`, as a taken request's): see `discardBody`.
 * @param {Request} request
 * @param {Response} response
 */
async function refuse(request, response) {
  await discardBody(request, MAX_BODY_BYTES);
  return response;
}

/**
 * @param {string} error
 * @param {number} retryMs when to try again
 */
function tooMany(error, retryMs) {
  return Response.json({ error }, { status: 429, headers: { 'retry-after': String(Math.ceil(retryMs / 1000)) } });
}

/**
 * Whether `name` is the operator's server's, in any case (the set compares names so).
 * @param {unknown} name
 */
const isOperatorServer = (name) => typeof name === 'string' && foldSourceName(name) === OPERATOR_SERVER;

const operatorsOwn = () =>
  Response.json(
    { error: `${OPERATOR_SERVER} is the operator's server: users cannot add, replace or remove it` },
    { status: 409 },
  );

// One agent per user: a Durable Object that keeps the user's MCP session,
// OAuth state and background tasks, and answers each message with an AI SDK
// tool loop over the MCP server's tools.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { mcpToolSet } from '@mcp/ai-sdk';
import { AuthError, Client, OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { generateText, stepCountIs } from 'ai';
import { backgroundTools } from './background-tools.js';
import { durableOAuthStore, loadSession, loadTasks, saveSession, saveTasks } from './durable-state.js';
import { envLimit } from './env-limit.js';
import { discardBody, parseJson, readCapped } from './request-body.js';
import { TokenBucket } from './token-bucket.js';

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

const CLIENT_INFO = { name: 'worker-agent-example', version: '1.0.0' };

const SYSTEM =
  'You are an assistant with the tools of an MCP server. For long work use background_start, ' +
  'and background_check in a later turn to collect the result.';

/**
 * @typedef {object} Env
 * @property {string} MCP_URL the MCP server's Streamable HTTP endpoint
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

  /** @param {DurableObjectState} ctx @param {Env} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.#maxQueue = envLimit(env.MAX_QUEUE, MAX_QUEUE);
    this.#rate = new TokenBucket(envLimit(env.RATE_PER_MINUTE, RATE_PER_MINUTE));
  }

  /**
   * One request at a time, so two messages never run a tool loop on the same
   * session, tokens and task list at once; at most `MAX_QUEUE` held, and
   * `RATE_PER_MINUTE` a minute. Routes: `POST /chat` `{message}`,
   * `GET /callback?code=…&state=…`. The Worker sends here only requests of
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
    // One redirect URI for every user: the pending authorization in this object's storage binds a callback
    // to this user and to the flow it started.
    const redirectUri = `${url.origin}/callback`;
    if (url.pathname === '/chat' && request.method === 'POST') return this.#chat(request, redirectUri);
    if (url.pathname === '/callback' && request.method === 'GET') return this.#callback(url, redirectUri);
    return refuse(request, Response.json({ error: 'not found' }, { status: 404 }));
  }

  /**
   * Answers one message: connect (resuming the stored session), list the
   * server's tools, run the tool loop, store what changed.
   * @param {Request} request
   * @param {string} redirectUri
   */
  async #chat(request, redirectUri) {
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
    const [stored, tasks] = await Promise.all([loadSession(storage), loadTasks(storage)]);
    const tasksBefore = JSON.stringify(tasks);
    /** @type {string | undefined} */
    let authorizationUrl;
    const auth = this.#oauth(redirectUri, async (url) => {
      authorizationUrl = url.href;
      // The user authorizes in a browser; /callback finishes it in another invocation.
      throw new AuthError('redirect_started', 'the user was sent to the authorization server');
    });
    const transport = new StreamableHttpTransport(this.env.MCP_URL, {
      auth,
      // Nobody would read a standalone GET stream once this invocation returns.
      standaloneStream: false,
      // The session outlives this client: no DELETE on close.
      endSessionOnClose: false,
    });
    const client = new Client(transport, { clientInfo: CLIENT_INFO, ...(stored && { resume: stored }) });
    const turnMs = turnLimit(this.env);
    const deadline = AbortSignal.timeout(turnMs);
    try {
      await client.connect();
      const tools = { ...(await mcpToolSet(client)), ...backgroundTools(client, tasks) };
      const result = await generateText({
        model: this.#model(),
        system: SYSTEM,
        prompt: message,
        tools,
        stopWhen: stepCountIs(MAX_STEPS),
        // The caller going away, or the turn running past its bound, ends the loop.
        abortSignal: AbortSignal.any([request.signal, deadline]),
      });
      if (authorizationUrl) return needsAuthorization(authorizationUrl);
      return Response.json({
        text: result.text,
        finishReason: result.finishReason,
        steps: result.steps.length,
        toolCalls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
      });
    } catch (error) {
      if (authorizationUrl) return needsAuthorization(authorizationUrl);
      if (deadline.aborted) return Response.json({ error: `the turn ran past ${turnMs} ms` }, { status: 504 });
      const { name, message: detail } = /** @type {Error} */ (error);
      return Response.json({ error: `${name}: ${detail}` }, { status: 502 });
    } finally {
      await saveSession(storage, client.session, stored);
      if (JSON.stringify(tasks) !== tasksBefore) await saveTasks(storage, tasks);
      await client.close();
    }
  }

  /**
   * The redirect URI: the provider finds the pending authorization by `state`
   * in this object's storage, checks `iss`, redeems the code, stores the tokens.
   * A `state` this user's flows did not issue is found nowhere here: refused,
   * with nothing stored and no other user's pending authorization touched.
   * @param {URL} url
   * @param {string} redirectUri
   */
  async #callback(url, redirectUri) {
    const auth = this.#oauth(redirectUri, () => Promise.reject(new Error('not during a callback')));
    try {
      await auth.finishAuthorization(url);
    } catch (error) {
      return Response.json({ error: `${error.name}: ${error.message}` }, { status: 400 });
    }
    return Response.json({ authorized: true });
  }

  /**
   * @param {string} redirectUri
   * @param {import('@mcp/core').AuthorizeHandler} authorize
   */
  #oauth(redirectUri, authorize) {
    return new OAuthProvider({
      store: durableOAuthStore(this.ctx.storage),
      redirectUri,
      clientMetadata: { client_name: 'MCP agent Worker example', application_type: 'web' },
      authorize,
    });
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

/** @param {string} url where to send the user */
function needsAuthorization(url) {
  return Response.json({ authorize: url }, { status: 401 });
}

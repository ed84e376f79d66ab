/**
 * A scripted OpenAI-compatible Chat Completions endpoint as a web-standard
 * handler. It answers `POST /v1/chat/completions` (JSON, or an event stream
 * when the request says `stream: true`) as the script says, and records every
 * request it saw, so a test asserts what the model was given.
 */
import { withCors } from '../http/cors.mjs';
import { completionBody, completionChunks, errorResponse, eventStream } from './chat-wire.mjs';
import { conversationOf, DEFAULT_SCRIPT, parseScript, pickRule, renderReply } from './script.mjs';

/** Default cap on a request body, in bytes: far above any test prompt, low enough to refuse a runaway. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * @typedef {object} RecordedRequest
 * @property {string} path
 * @property {string | null} authorization the `Authorization` header as sent
 * @property {any} body the parsed JSON body (null when it could not be read)
 * @property {number} status the status the mock answered with
 * @property {string} [error] the error message it answered with
 */

/**
 * @param {{ script?: unknown, apiKey?: string, maxBodyBytes?: number }} [options]
 */
export function createMockModel({ script = DEFAULT_SCRIPT, apiKey, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = {}) {
  let rules = parseScript(script);
  /** @type {RecordedRequest[]} */
  const requests = [];
  let calls = 0;
  let completions = 0;

  /**
   * @param {RecordedRequest} record
   * @param {Response} response
   */
  const recorded = (record, response) => {
    requests.push(record);
    return response;
  };

  /** @param {Request} request */
  async function chat(request) {
    const authorization = request.headers.get('authorization');
    const base = { path: new URL(request.url).pathname, authorization, body: null };
    /** @param {number} status @param {string} message @param {string} [code] */
    const fail = (status, message, code) =>
      recorded({ ...base, status, error: message }, errorResponse(status, message, code));

    const text = await readCapped(request, maxBodyBytes);
    if (text === undefined) return fail(413, `mock-model: request body over ${maxBodyBytes} bytes`, 'body_too_large');
    if (apiKey !== undefined && authorization !== `Bearer ${apiKey}`) {
      return fail(401, 'mock-model: missing or wrong API key', 'invalid_api_key');
    }
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(400, 'mock-model: the body is not JSON');
    }
    const record = { ...base, body };
    /** @param {number} status @param {string} message */
    const refuse = (status, message) => recorded({ ...record, status, error: message }, errorResponse(status, message));
    if (body === null || typeof body !== 'object' || !Array.isArray(body.messages)) {
      return refuse(400, 'mock-model: `messages` must be an array');
    }

    const conversation = conversationOf(body.messages);
    const rule = pickRule(rules, conversation);
    if (rule === undefined)
      return refuse(400, `mock-model: no rule answers a conversation ending with ${conversation.last}`);
    if (rule.delayMs !== undefined) await delay(rule.delayMs, request.signal);
    if (rule.error !== undefined) return refuse(rule.error.status, rule.error.message);

    const offered = Array.isArray(body.tools) ? body.tools.map((tool) => tool?.function?.name) : [];
    const missing = rule.call?.find(({ tool }) => !offered.includes(tool));
    if (missing !== undefined) {
      return refuse(
        400,
        `mock-model: tool ${missing.tool} is not in the request's tools (${offered.join(', ') || 'none'})`,
      );
    }

    const reply = rule.reply === undefined ? null : renderReply(rule.reply, conversation);
    const toolCalls = (rule.call ?? []).map(({ tool, args }) => ({
      id: `call_${++calls}`,
      name: tool,
      arguments: JSON.stringify(args),
    }));
    const promptTokens = Math.ceil(text.length / 4);
    const completionTokens = Math.ceil(
      ((reply ?? '').length + toolCalls.reduce((n, c) => n + c.arguments.length, 0)) / 4,
    );
    const answer = {
      id: `chatcmpl-mock-${++completions}`,
      model: typeof body.model === 'string' ? body.model : 'mock-model',
      text: reply,
      toolCalls,
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
    requests.push({ ...record, status: 200 });
    if (body.stream !== true) return Response.json(completionBody(answer));
    const chunks = completionChunks(answer, { includeUsage: body.stream_options?.include_usage === true });
    return new Response(eventStream(chunks), {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    });
  }

  /** @param {Request} request */
  async function control(request, path) {
    if (path === '/mock/requests' && request.method === 'GET') return Response.json(requests);
    if (path === '/mock/requests' && request.method === 'DELETE') {
      requests.length = 0;
      return new Response(null, { status: 204 });
    }
    // POST, not PUT: the shared CORS allow list (http/cors.mjs) has no PUT.
    if (path === '/mock/script' && request.method === 'POST') {
      const text = await readCapped(request, maxBodyBytes);
      if (text === undefined) {
        return errorResponse(413, `mock-model: request body over ${maxBodyBytes} bytes`, 'body_too_large');
      }
      try {
        rules = parseScript(JSON.parse(text));
      } catch (error) {
        return errorResponse(400, error instanceof Error ? error.message : String(error));
      }
      return new Response(null, { status: 204 });
    }
    return undefined;
  }

  /** @param {Request} request */
  async function handle(request) {
    const path = new URL(request.url).pathname;
    if (path === '/v1/chat/completions') {
      return request.method === 'POST' ? chat(request) : errorResponse(405, 'mock-model: use POST');
    }
    if (path === '/v1/models' && request.method === 'GET') {
      return Response.json({ object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'test-servers' }] });
    }
    return (await control(request, path)) ?? errorResponse(404, `mock-model: nothing at ${request.method} ${path}`);
  }

  return {
    /** The handler, CORS included (a browser page calls it cross-origin). */
    handler: withCors(handle),
    /** Every chat request seen, in order (live: it grows as requests arrive). */
    requests,
    /** Replaces the script; throws a TypeError for an invalid one. */
    setScript(/** @type {unknown} */ next) {
      rules = parseScript(next);
    },
  };
}

/**
 * Resolves after `ms`, or at once when the client has gone (`signal`), so a
 * delayed answer holds no timer for a request nobody waits for.
 * @param {number} ms
 * @param {AbortSignal} signal
 */
function delay(ms, signal) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The body as text, or undefined once it passes `limit` bytes (the rest is not read).
 * @param {Request} request
 * @param {number} limit
 */
async function readCapped(request, limit) {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

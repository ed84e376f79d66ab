import * as v from 'valibot';
import { McpError } from '../../errors/mcp-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { ElicitRequestParamsSchema } from '../../protocol/elicitation.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { CreateMessageRequestParamsSchema, toolLoopBreach } from '../../protocol/sampling.js';
import { isLoopback } from '../../util/loopback.js';
import type { ClientOptions, ElicitationHandler, HandlerContext, SamplingHandler } from '../options.js';
import { elicitationAnswerBreach } from './elicitation-answer.js';
import { ElicitationCompletions } from './elicitation-completions.js';

/**
 * Answers one thing the server asks of the client; throws RpcError for what
 * cannot be answered. `refusedRequest` names the request a -32042 refused, when
 * the elicitation comes from one (`HandlerContext.refusedRequest`).
 */
export type AnswerRequest = (
  method: string,
  params: unknown,
  signal: AbortSignal,
  refusedRequest?: string,
) => Promise<Record<string, unknown>>;

/**
 * Answers what a server asks of the client — sampling, elicitation, roots, ping —
 * from the handlers given at construction. Era-neutral: a legacy server request
 * and a modern MRTR input request both come through `handle`.
 *
 * What the server asks is checked before a handler runs (a breach is `-32602`);
 * what the app answers is checked before it is sent: a root that is not
 * `file://`, or a form answer that breaks its `requestedSchema`, is never sent.
 * That is the app's fault, not the server's: it goes to `onError` as an
 * `McpError` naming the breach (never the value), and the server gets `-32603`
 * with the same message (legacy) or the call that asked fails with it (2026-07-28).
 */
export class ServerRequests {
  readonly #options: ClientOptions;
  readonly #sampling: SamplingHandler | undefined;
  readonly #samplingTools: boolean;
  readonly #elicit: ElicitationHandler | undefined;
  /** The app's elicitation handler does URL mode (`elicitation: { handler, url: true }`). */
  readonly elicitsUrls: boolean;
  /** What URL-mode handlers running now may wait for: the server's `notifications/elicitation/complete`. */
  readonly completions = new ElicitationCompletions();

  constructor(options: ClientOptions) {
    this.#options = options;
    const { elicitation, sampling } = options;
    this.#sampling = typeof sampling === 'function' ? sampling : sampling?.handler;
    this.#samplingTools = typeof sampling === 'object' && sampling.tools === true;
    this.#elicit = typeof elicitation === 'function' ? elicitation : elicitation?.handler;
    this.elicitsUrls = typeof elicitation === 'object' && elicitation.url === true;
  }

  /** The result for one server request; throws RpcError for what cannot be answered. */
  async handle(
    method: string,
    params: unknown,
    signal: AbortSignal,
    refusedRequest?: string,
  ): Promise<Record<string, unknown>> {
    switch (method) {
      case 'ping':
        return {};
      case 'sampling/createMessage':
        return this.#sample(params, signal);
      case 'elicitation/create':
        return this.#elicitation(params, signal, refusedRequest);
      case 'roots/list':
        return this.#roots(signal);
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
  }

  async #sample(params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const handler = this.#sampling;
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: sampling is not supported');
    const request = validParams(CreateMessageRequestParamsSchema, params);
    // Tools need the sampling.tools capability the app declares with { handler, tools: true } (2025-11-25+).
    if (!this.#samplingTools && (request.tools !== undefined || request.toolChoice !== undefined)) {
      throw invalidParams('sampling with tools is not supported (the client did not declare sampling.tools)');
    }
    const breach = toolLoopBreach(request.messages);
    if (breach) throw invalidParams(`the tool loop is broken: ${breach}`);
    return { ...(await handler(request, { signal })) };
  }

  async #elicitation(params: unknown, signal: AbortSignal, refusedRequest?: string): Promise<Record<string, unknown>> {
    const handler = this.#elicit;
    // Without a handler the capability was never declared; declining is the answer
    // that tells the server no input is coming (2025-06-18 elicitation).
    if (!handler) return { action: 'decline' };
    const request = validParams(ElicitRequestParamsSchema, params);
    // A mode the client never declared is invalid params (2025-11-25 elicitation).
    if ('mode' in request && request.mode === 'url') {
      if (!this.elicitsUrls) {
        throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: URL-mode elicitation is not supported');
      }
      if (!isSafeToOpen(request.url)) {
        this.#options.onWarning?.(
          `elicitation/create: declined a URL-mode elicitation to ${JSON.stringify(request.url.slice(0, 100))}: only https: URLs (http: on loopback) reach the app`,
        );
        return { action: 'decline' };
      }
    }
    const context: HandlerContext = refusedRequest ? { signal, refusedRequest } : { signal };
    const id = request.mode === 'url' ? request.elicitationId : undefined;
    const answer = await (id === undefined
      ? handler(request, context)
      : this.completions.during(id, async (completed) => handler(request, { ...context, completed })));
    const breach = request.mode === 'url' ? undefined : elicitationAnswerBreach(request.requestedSchema, answer);
    if (breach) this.#refuse(`elicitation/create: the app's answer does not fit the requestedSchema: ${breach}`);
    return { ...answer };
  }

  async #roots(signal: AbortSignal): Promise<Record<string, unknown>> {
    const { roots } = this.#options;
    if (!roots) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: roots are not supported');
    const list = typeof roots === 'function' ? await roots({ signal }) : roots;
    // Every root is a file:// URI (all revisions § Roots); the URI itself stays out of the message.
    // Checked by hand, not with RootSchema: a valibot action the entry lacks would move into the entry chunk.
    const bad = list.findIndex(({ uri }) => typeof uri !== 'string' || !uri.startsWith('file://'));
    if (bad >= 0) this.#refuse(`roots/list: the app's root ${bad} is not a file:// URI; no roots were sent`);
    return { roots: list.map((root) => ({ ...root })) };
  }

  /** An answer of the app's that must not be sent: reported to `onError`, and thrown (see the class). */
  #refuse(message: string): never {
    const error = new McpError(message);
    this.#options.onError?.(error);
    throw error;
  }
}

/**
 * Whether a URL-mode elicitation may reach the app: `https:`, or `http:` to this
 * machine (a local sign-in page). A `javascript:`, `data:` or `file:` URL — or
 * plain `http:` anywhere else — could run code or leak what the user types once
 * opened, so the client declines it on the app's behalf (2025-11-25 elicitation,
 * security: the client must not open URLs it has not vetted).
 */
function isSafeToOpen(url: string): boolean {
  // The params schema already checked that `url` parses.
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed));
}

const invalidParams = (message: string): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`);

function validParams<S extends v.GenericSchema>(schema: S, params: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, params);
  if (!parsed.success) {
    throw invalidParams(v.summarize(parsed.issues));
  }
  return parsed.output;
}

import * as v from 'valibot';
import { RpcError } from '../../errors/rpc-error.js';
import { ElicitRequestParamsSchema } from '../../protocol/elicitation.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { CreateMessageRequestParamsSchema } from '../../protocol/sampling.js';
import { isLoopback } from '../../util/loopback.js';
import type { ClientOptions, ElicitationHandler } from '../options.js';

/** Answers one thing the server asks of the client; throws RpcError for what cannot be answered. */
export type AnswerRequest = (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;

/**
 * Answers what a server asks of the client — sampling, elicitation, roots, ping —
 * from the handlers given at construction. Era-neutral: a legacy server request
 * and a modern MRTR input request both come through `handle`.
 */
export class ServerRequests {
  readonly #options: ClientOptions;
  readonly #elicit: ElicitationHandler | undefined;
  /** The app's elicitation handler does URL mode (`elicitation: { handler, url: true }`). */
  readonly elicitsUrls: boolean;

  constructor(options: ClientOptions) {
    this.#options = options;
    const { elicitation } = options;
    this.#elicit = typeof elicitation === 'function' ? elicitation : elicitation?.handler;
    this.elicitsUrls = typeof elicitation === 'object' && elicitation.url === true;
  }

  /** The result for one server request; throws RpcError for what cannot be answered. */
  async handle(method: string, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    switch (method) {
      case 'ping':
        return {};
      case 'sampling/createMessage':
        return this.#sample(params, signal);
      case 'elicitation/create':
        return this.#elicitation(params, signal);
      case 'roots/list':
        return this.#roots();
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
  }

  async #sample(params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const handler = this.#options.sampling;
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: sampling is not supported');
    const request = validParams(CreateMessageRequestParamsSchema, params);
    return { ...(await handler(request, { signal })) };
  }

  async #elicitation(params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
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
    return { ...(await handler(request, { signal })) };
  }

  async #roots(): Promise<Record<string, unknown>> {
    const { roots } = this.#options;
    if (!roots) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: roots are not supported');
    const list = typeof roots === 'function' ? await roots() : roots;
    return { roots: list.map((root) => ({ ...root })) };
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

function validParams<S extends v.GenericSchema>(schema: S, params: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, params);
  if (!parsed.success) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${v.summarize(parsed.issues)}`);
  }
  return parsed.output;
}

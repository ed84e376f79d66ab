import {
  type CallOptions,
  CapabilityError,
  type Client,
  ErrorCode,
  type LoggingLevel,
  McpError,
  RpcError,
  type ToolResult,
} from '@mcp/core';
import { messageOf, toErrorObject } from '@mcp/core/transport';
import { type ErrorObject, isRecord } from './local-peer.js';
import type { ResourceSubscriptions } from './resource-subscriptions.js';

/** What a forwarded request may use besides the client: the remote subscriptions it holds. */
export interface ForwardContext {
  readonly client: Client;
  /** 2026-07-28 has no `resources/subscribe`: a `listen()` per subscribed URI stands in for it. */
  readonly subscriptions: ResourceSubscriptions;
}

type Params = Record<string, unknown>;
type Forward = (context: ForwardContext, params: Params, options: CallOptions) => Promise<Params>;

/** Sends the request as it came and hands back the raw result: pagination, `_meta` and unknown fields pass through. */
const raw =
  (method: string): Forward =>
  // Async, as every forward is: whatever goes wrong reaches the caller as a rejection, never as a throw.
  async ({ client }, params, options) =>
    client.request(method, params, options);

/**
 * How each request of the local client reaches the remote server. Tools go
 * through the Client's own methods, which do what 2026-07-28 needs (the
 * `Mcp-Param-*` headers, a relisting when the server says they disagree, a task
 * followed to its result); the rest goes as it came, `client.request`.
 */
const FORWARDS: Readonly<Record<string, Forward>> = {
  // Every page, as one: in 2026-07-28 the Client leaves out tools with broken x-mcp-header annotations.
  'tools/list': async ({ client }, _params, options) => ({ tools: await client.listTools(options) }),
  'tools/call': async ({ client }, params, options) => {
    const name = stringParam(params, 'name');
    const args = isRecord(params.arguments) ? params.arguments : {};
    // The local request's `_meta` goes on; its progress token was taken, the Client sets its own.
    const meta = isRecord(params._meta) ? params._meta : undefined;
    // The local client validates against the schema it listed; the bridge passes the result on as it came.
    const result = await client.callTool(name, args, { ...options, validateOutput: false, ...(meta && { meta }) });
    // The result as the server sent it: `text` is the Client's own, and `resultType` belongs to the remote's
    // 2026-07-28 wire, not to the local session's revision.
    const { text: _text, isError, resultType: _resultType, ...wire } = result as ToolResult & { resultType?: unknown };
    return { ...wire, ...(isError && { isError: true }) };
  },
  'resources/list': raw('resources/list'),
  'resources/templates/list': raw('resources/templates/list'),
  'resources/read': raw('resources/read'),
  'prompts/list': raw('prompts/list'),
  'prompts/get': raw('prompts/get'),
  'completion/complete': raw('completion/complete'),
  'logging/setLevel': async ({ client }, params, options) => {
    await client.setLoggingLevel(stringParam(params, 'level') as LoggingLevel, options);
    return {};
  },
  'resources/subscribe': async ({ client, subscriptions }, params, options) => {
    const uri = stringParam(params, 'uri');
    if (client.era === 'legacy') await client.subscribeResource(uri, options);
    else await subscriptions.subscribe(client, uri, options.signal);
    return {};
  },
  'resources/unsubscribe': async ({ client, subscriptions }, params, options) => {
    const uri = stringParam(params, 'uri');
    if (client.era === 'legacy') await client.unsubscribeResource(uri, options);
    else await subscriptions.unsubscribe(uri);
    return {};
  },
};

/** The forward for `method`, or undefined when the bridge does not carry it (-32601). */
export function forwardOf(method: string): Forward | undefined {
  return Object.hasOwn(FORWARDS, method) ? FORWARDS[method] : undefined;
}

function stringParam(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: "${key}" must be a string`);
  return value;
}

/**
 * A failure as the local client receives it. The remote server's own JSON-RPC
 * error crosses unchanged (code, message, data); what failed on the bridge's
 * side of the wire — a capability the remote server never declared, a timeout,
 * a limit, a transport or protocol failure — is an error of ours, its message
 * saying so and `data.error` naming the class.
 */
export function toLocalError(error: unknown): ErrorObject {
  if (error instanceof RpcError) return toErrorObject(error);
  const name = error instanceof Error ? error.name : 'Error';
  const message = messageOf(error);
  if (error instanceof CapabilityError) {
    return { code: ErrorCode.MethodNotFound, message: `Method not found: ${message}`, data: { error: name } };
  }
  const which = error instanceof McpError || name === 'TimeoutError' ? '' : `${name}: `;
  return { code: ErrorCode.InternalError, message: `bridge: ${which}${message}`, data: { error: name } };
}

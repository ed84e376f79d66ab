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
    // The local client validates against the schema it listed; the bridge passes the result on as it came.
    const result = isRecord(params._meta)
      ? await callWithMeta(client, name, args, params._meta, options)
      : await client.callTool(name, args, { ...options, validateOutput: false });
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

/**
 * A `tools/call` whose `_meta` must reach the server (the local client's own
 * keys; its progress token is the Client's to set). `callTool` takes none, so
 * `client.request` sends it, with what `callTool` does around the request: the
 * tools listed again, once, when a 2026-07-28 server says the `Mcp-Param-*`
 * headers disagree with its schema, and a task the server made of the call
 * followed to its result. (A 2025-11-25 server's tools are not asked to run as
 * tasks on this path: the server runs the call as it comes.)
 */
async function callWithMeta(
  client: Client,
  name: string,
  args: Params,
  meta: Params,
  options: CallOptions,
): Promise<ToolResult> {
  const send = () => client.request('tools/call', { name, arguments: args, _meta: meta }, options);
  let result: Params;
  try {
    result = await send();
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch) throw error;
    await client.listTools({ ...options, cache: false });
    result = await send();
  }
  const task = isRecord(result.task) ? result.task : result;
  if (result.content === undefined && typeof task.taskId === 'string') return client.tasks.result(task.taskId, options);
  return result as unknown as ToolResult;
}

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
export function toErrorObject(error: unknown): ErrorObject {
  if (error instanceof RpcError) {
    return { code: error.code, message: error.rpcMessage, ...(error.data !== undefined && { data: error.data }) };
  }
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CapabilityError) {
    return { code: ErrorCode.MethodNotFound, message: `Method not found: ${message}`, data: { error: name } };
  }
  const which = error instanceof McpError || name === 'TimeoutError' ? '' : `${name}: `;
  return { code: ErrorCode.InternalError, message: `bridge: ${which}${message}`, data: { error: name } };
}

/**
 * Raw 2026-07-28 helpers for the test-server tests (no client code of ours):
 * the per-request `_meta` envelope and, over HTTP, the standard headers.
 */
import { ACCEPT_BOTH, type Message } from './http-peer.js';

export const MODERN_VERSION = '2026-07-28';

/** Client capabilities that let every input request through. */
export const ALL_CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** The `_meta` every 2026-07-28 request carries (basic/lifecycle). */
export function modernMeta(capabilities: Record<string, unknown> = ALL_CAPABILITIES): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'modern-test-servers-test', version: '0.0.0' },
  };
}

/** `params` plus the envelope, unless `params` brings a `_meta` of its own. */
export function withMeta(params: Record<string, unknown> = {}) {
  return { _meta: modernMeta(), ...params };
}

/** The `Mcp-Name` a method mirrors from its params, if any. */
function mcpName(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return params.name as string;
  if (method === 'resources/read') return params.uri as string;
  // SEP-2663 § Streamable HTTP: the task methods mirror params.taskId.
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return params.taskId as string;
  return undefined;
}

let nextId = 1;

/**
 * POSTs one 2026-07-28 request with the standard headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`) plus `headers`; `null` in `headers` drops one.
 */
export function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | null> = {},
  init: RequestInit = {},
): Promise<Response> {
  const name = mcpName(method, params);
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: ACCEPT_BOTH,
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
  return fetch(url, {
    method: 'POST',
    headers: sent,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: withMeta(params) }),
    signal: AbortSignal.timeout(5_000),
    ...init,
  });
}

/** The JSON-RPC message of a response, whether it came as JSON or as SSE. */
export async function modernMessage(response: Response): Promise<Message> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(text) as Message;
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Message);
  const answer = data.find((message) => message.method === undefined);
  if (answer === undefined) throw new Error(`no response in ${text}`);
  return answer;
}

/** A `modernPost` whose JSON-RPC message is all that matters. */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | null> = {},
): Promise<Message> {
  return modernMessage(await modernPost(url, method, params, headers));
}

/** A JSON Schema node, as far as these tests read one. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  'x-mcp-header'?: string;
}

/** One entry of an InputRequiredResult's `inputRequests`. */
export interface InputRequest {
  method: string;
  params?: { mode?: string; message?: string };
}

/** Every 2026-07-28 result field these tests read, all optional. */
export interface ModernResult {
  resultType?: string;
  ttlMs?: number;
  cacheScope?: string;
  content?: { type: string; text: string }[];
  isError?: boolean;
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  tools?: { name: string; inputSchema: JsonSchema }[];
  nextCursor?: string;
  messages?: { role: string; content: { text?: string } }[];
  contents?: { uri: string; text?: string }[];
}

/** The params of a notification, as these tests read them. */
export interface NotificationParams {
  uri?: string;
  notifications?: unknown;
  _meta?: Record<string, unknown>;
}

/** A response's result, typed for reading. */
export function resultOf(message: Message): ModernResult {
  return message.result as ModernResult;
}

/** The text of a tool result's first part. */
export function firstText(message: Message): string {
  return resultOf(message).content?.[0]?.text ?? '';
}

/**
 * Raw-fetch helpers for the HTTP test-server tests: no client code of ours,
 * so the tests prove the servers alone.
 */

export const PROTOCOL_VERSION = '2025-11-25';
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A JSON-RPC message as it crossed the wire, untyped. */
export type Message = Record<string, unknown> & { id?: number | string; method?: string };

/** One SSE event, fields as sent. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** A session on a stateful endpoint: the headers every later request carries. */
export interface Session {
  id: string;
  headers: Record<string, string>;
}

/** The initialize request of a 2025-11-25 client that can sample, elicit and list roots. */
export function initializeRequest(id: number | string = 1): Message {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { sampling: {}, elicitation: {}, roots: {} },
      clientInfo: { name: 'http-test-servers-test', version: '0.0.0' },
    },
  };
}

/** POSTs one JSON-RPC message with the headers a Streamable HTTP client sends. */
export function post(url: string, message: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(5_000),
    ...init,
  });
}

/** Initializes a session and sends `notifications/initialized`. */
export async function openSession(url: string): Promise<Session> {
  const response = await post(url, initializeRequest());
  const id = response.headers.get('mcp-session-id');
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: ${response.status}`);
  await response.text();
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL_VERSION };
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized got ${initialized.status}`);
  return { id, headers };
}

/** A `tools/call` request message. */
export function toolCall(id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } };
}

/** The SSE events of a response body, in order, as they arrive. */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event !== undefined) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function parseEvent(block: string): SseEvent | undefined {
  const event: SseEvent = { data: '' };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'retry') event.retry = Number(value);
  }
  if (data.length === 0 && event.id === undefined && event.event === undefined) return undefined;
  event.data = data.join('\n');
  return event;
}

/** The JSON-RPC message an event carries, or undefined for empty data (a priming event). */
export function messageOf(event: SseEvent): Message | undefined {
  return event.data === '' ? undefined : (JSON.parse(event.data) as Message);
}

/** Reads events until `stop` says so (that event included) or the stream ends. */
export async function readEvents(response: Response, stop: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response)) {
    events.push(event);
    if (stop(event)) break;
  }
  return events;
}

/** Reads events until the response to request `id` arrives. */
export function readUntilResponse(response: Response, id: number | string): Promise<SseEvent[]> {
  return readEvents(response, (event) => {
    const message = messageOf(event);
    return message !== undefined && message.method === undefined && message.id === id;
  });
}

/** The text of the first content part of a tools/call result. */
export function resultText(message: Message | undefined): string | undefined {
  return (message?.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
}

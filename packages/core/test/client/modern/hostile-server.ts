/**
 * A real 2026-07-28 server over node:http whose answers a test writes by hand:
 * the shapes a hostile server sends (schemas built to be slow to walk, floods
 * of input requests, URLs no app should open) that no well-behaved reference
 * server would. It speaks just enough of the protocol: `server/discover`,
 * `tools/list` and `tools/call`, each answered with JSON.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One `tools/call` as the server received it. */
export interface ReceivedCall {
  readonly name: string;
  readonly params: Record<string, unknown>;
}

/** What the test decides the server answers; `call` may hold its answer open. */
export interface HostileScript {
  /**
   * The tools listed; raw JSON text for what `JSON.stringify` cannot write (e.g.
   * nesting deeper than its stack); or a function giving each page's whole result.
   */
  tools: readonly Record<string, unknown>[] | string | ((cursor: string | undefined) => Record<string, unknown>);
  call: (call: ReceivedCall) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

export interface HostileServer {
  readonly url: string;
  /** Every `tools/call` received, in order. */
  readonly calls: ReceivedCall[];
  /** How many `tools/list` requests arrived since the last `script`. */
  readonly listed: number;
  /** Replaces what the server answers (each test sets its own). */
  script(script: HostileScript): void;
}

const TEXT = (text: string) => ({ content: [{ type: 'text', text }] });

/** Starts one hostile server for the file (beforeAll) and stops it after. */
export function useHostileServer(): HostileServer {
  let server: Server | undefined;
  let url = '';
  const calls: ReceivedCall[] = [];
  let listed = 0;
  let current: HostileScript = { tools: [], call: () => TEXT('ok') };
  beforeAll(async () => {
    server = createServer((request, response) => {
      void answer(request).then(
        (body) => {
          response.writeHead(body === undefined ? 202 : 200, { 'content-type': 'application/json' });
          response.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
        },
        () => {
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function answer(request: IncomingMessage): Promise<Record<string, unknown> | string | undefined> {
    let text = '';
    for await (const chunk of request) text += chunk;
    const message = JSON.parse(text) as { id?: number; method: string; params?: Record<string, unknown> };
    if (message.id === undefined) return undefined;
    const reply = (result: Record<string, unknown>) => ({ jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'server/discover':
        return reply({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
      case 'tools/list': {
        const { tools } = current;
        listed++;
        if (typeof tools === 'function') return reply(tools(message.params?.cursor as string | undefined));
        if (typeof tools !== 'string') return reply({ tools });
        return `{"jsonrpc":"2.0","id":${message.id},"result":{"tools":${tools}}}`;
      }
      case 'tools/call': {
        const params = message.params ?? {};
        const received = { name: String(params.name), params };
        calls.push(received);
        return reply(await current.call(received));
      }
      default:
        return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
    }
  }

  return {
    get url() {
      return url;
    },
    calls,
    get listed() {
      return listed;
    },
    script(script) {
      current = script;
      calls.length = 0;
      listed = 0;
    },
  };
}

/** A tool with a plain input schema. */
export const plainTool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }) => ({
  name,
  inputSchema,
});

export { TEXT as textResult };

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, McpError, StreamableHttpTransport } from '../../src/index.js';
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isResultResponse,
  JsonRpcBatchSchema,
  JsonRpcMessageSchema,
  JsonRpcResultResponseSchema,
} from '../../src/protocol/jsonrpc.js';
import { fcParams } from './fc-params.js';

/** Values a hostile server may put in each JSON-RPC member: right, nearly right and wrong. */
const idArb = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constantFrom(null, 1.5, -0, true), fc.jsonValue());
const objectArb = fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 3 }), fc.jsonValue());
const errorArb = fc.oneof(
  fc.record({ code: fc.oneof(fc.integer(), fc.double()), message: fc.oneof(fc.string(), fc.jsonValue()) }),
  fc.jsonValue(),
);

/** Objects shaped like JSON-RPC messages, each member present or not, right or wrong. */
const nearMessageArb = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', 2, null)),
    id: idArb,
    method: fc.oneof(fc.constantFrom('ping', 'notifications/progress', 'tools/call'), fc.jsonValue()),
    params: objectArb,
    result: objectArb,
    error: errorArb,
  },
  { requiredKeys: [] },
);

/** Anything a JSON body can decode to, weighted toward the near-misses that reach deep into the schemas. */
const jsonArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nearMessageArb },
  { weight: 1, arbitrary: fc.array(nearMessageArb, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);

describe('JSON-RPC decoding (valibot schemas)', () => {
  it('never throws on any value; what it accepts is exactly one kind of message', () => {
    fc.assert(
      fc.property(fc.oneof(jsonArb, fc.anything()), (value) => {
        const parsed = v.safeParse(JsonRpcMessageSchema, value);
        if (!parsed.success) {
          expect(parsed.issues.length).toBeGreaterThan(0);
          return;
        }
        const message = parsed.output;
        const kinds = [isJsonRpcRequest(message), isJsonRpcNotification(message), isJsonRpcResponse(message)];
        expect(kinds.filter(Boolean)).toHaveLength(1);
      }),
      fcParams(2000),
    );
  });

  it('never throws on a batch of anything, and accepts one only when every element is a message', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(jsonArb, fc.anything()), { maxLength: 4 }), (values) => {
        const parsed = v.safeParse(JsonRpcBatchSchema, values);
        const each = values.map((value) => v.safeParse(JsonRpcMessageSchema, value).success);
        expect(parsed.success).toBe(values.length > 0 && each.every(Boolean));
      }),
      fcParams(1000),
    );
  });

  // The channel routes anything with a `method` elsewhere first; the fast path stands in for this schema.
  it('the fast path for results is never looser than the result schema', () => {
    fc.assert(
      fc.property(nearMessageArb, (value) => {
        if (isResultResponse(value)) expect(v.safeParse(JsonRpcResultResponseSchema, value).success).toBe(true);
      }),
      fcParams(2000),
    );
  });

  it('decodes arbitrary bytes to a message or a validation failure, never a throw past JSON.parse', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let value: unknown;
        try {
          value = JSON.parse(new TextDecoder().decode(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          return;
        }
        expect(() => v.safeParse(JsonRpcMessageSchema, value)).not.toThrow();
      }),
      fcParams(1000),
    );
  });
});

/** What the hostile server answers to one `tools/call` of the tool `hostile`. */
interface Answer {
  readonly type: 'application/json' | 'text/event-stream';
  /** The body, given the id of the request it answers (so near-misses can carry the right one). */
  readonly body: (id: unknown) => Uint8Array;
  /** A well-formed result for the request: the call must resolve with it. */
  readonly valid: boolean;
}

const encoder = new TextEncoder();
/** Puts the request's id into a message now and then, so near-misses reach the matching path. */
const withId = (message: unknown, id: unknown, useId: boolean): unknown =>
  useId && typeof message === 'object' && message !== null && !Array.isArray(message) ? { ...message, id } : message;
const sse = (datas: readonly string[]): string => datas.map((data) => `data: ${data}\n\n`).join('');

const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc
    .uint8Array({ maxLength: 80 })
    .map((bytes) => ({ type: 'application/json' as const, body: () => bytes, valid: false })),
  fc.tuple(jsonArb, fc.boolean()).map(([json, useId]) => ({
    type: 'application/json' as const,
    body: (id: unknown) => encoder.encode(JSON.stringify(withId(json, id, useId)) ?? 'null'),
    valid: false,
  })),
  fc.array(fc.tuple(fc.oneof(jsonArb, fc.string()), fc.boolean()), { maxLength: 4 }).map((items) => ({
    type: 'text/event-stream' as const,
    body: (id: unknown) =>
      encoder.encode(
        sse(items.map(([item, useId]) => (typeof item === 'string' ? item : JSON.stringify(withId(item, id, useId))))),
      ),
    valid: false,
  })),
  fc
    .uint8Array({ maxLength: 80 })
    .map((bytes) => ({ type: 'text/event-stream' as const, body: () => bytes, valid: false })),
  fc.constantFrom('application/json' as const, 'text/event-stream' as const).map((type) => ({
    type,
    body: (id: unknown) => {
      const text = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'fine' }] } });
      return encoder.encode(type === 'application/json' ? text : sse([text]));
    },
    valid: true,
  })),
);

/**
 * A minimal MCP server on node:http, written out by hand so it can say
 * anything: a stateless 2025-11-25 server whose tool `echo` works and whose
 * tool `hostile` answers whatever the current case says.
 */
function hostileServer(): { server: Server; answer: { current: Answer | undefined } } {
  const answer: { current: Answer | undefined } = { current: undefined };
  const json = (res: ServerResponse, message: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      text += piece;
    });
    req.on('end', () => {
      const message = JSON.parse(text) as { id?: unknown; method: string; params?: Record<string, unknown> };
      const { id, method, params } = message;
      if (id === undefined) return void res.writeHead(202).end();
      if (method === 'initialize') {
        const serverInfo = { name: 'hostile', version: '1.0.0' };
        const result = { protocolVersion: params?.protocolVersion, capabilities: { tools: {} }, serverInfo };
        return json(res, { jsonrpc: '2.0', id, result });
      }
      if (method === 'tools/call' && params?.name === 'hostile' && answer.current) {
        const { type, body } = answer.current;
        return void res.writeHead(200, { 'content-type': type }).end(body(id));
      }
      if (method === 'tools/call' && params?.name === 'echo') {
        const content = [{ type: 'text', text: (params.arguments as { text: string }).text }];
        return json(res, { jsonrpc: '2.0', id, result: { content } });
      }
      json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    });
  });
  return { server, answer };
}

describe('JSON-RPC decoding through a client, from a server that sends anything', () => {
  const { server, answer } = hostileServer();
  const reported: Error[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let client: Client;

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const transport = new StreamableHttpTransport(`http://127.0.0.1:${port}/mcp`, { maxResumeAttempts: 0 });
    client = new Client(transport, {
      protocolVersion: '2025-11-25',
      requestTimeout: 5000,
      onError: (error) => reported.push(error),
    });
    await client.connect();
  });

  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    process.off('unhandledRejection', onUnhandled);
  });

  it('settles every call once, with its result or a typed error, and the next call still works', async () => {
    await fc.assert(
      fc.asyncProperty(answerArb, fc.string({ maxLength: 8 }), async (hostile, text) => {
        answer.current = hostile;
        reported.length = 0;
        const started = performance.now();
        const outcome = await client.callTool('hostile').then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        // Bad answers fail at once: none may be left to time out.
        expect(performance.now() - started).toBeLessThan(2000);
        if (outcome.ok) expect(outcome.result.content).toBeInstanceOf(Array);
        else expect(outcome.error).toBeInstanceOf(McpError);
        if (hostile.valid) expect(outcome.ok && outcome.result.text).toBe('fine');
        for (const error of reported) expect(error).toBeInstanceOf(McpError);
        expect((await client.callTool('echo', { text })).text).toBe(text);
        expect(unhandled).toEqual([]);
      }),
      fcParams(200),
    );
  });
});

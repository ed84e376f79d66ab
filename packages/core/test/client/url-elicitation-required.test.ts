import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error test-servers/ is plain JS without declarations
import { EVERYTHING_STDIO_ARGS, startEverythingHttp } from '../../../../test-servers/tasks/everything.mjs';
import {
  Client,
  type ClientOptions,
  type ElicitRequestParams,
  type ElicitResult,
  ErrorCode,
  type HandlerContext,
  LimitError,
  ProtocolError,
  RpcError,
  StreamableHttpTransport,
  UrlElicitationRequiredError,
} from '../../src/index.js';
import { useClientGuards, useHttpServers } from '../transport/http/harness.js';

// A request refused with -32042 (2025-11-25 client/elicitation § URL Elicitation Required Error): the reference
// server's `url-required` tool (`--profile url-elicitation`) refuses as often as asked with the elicitations it is
// handed, and server-everything's `trigger-url-elicitation` (errorPath) refuses once, then asks in URL mode.

const servers = useHttpServers();
const open = useClientGuards();
const stdioScript = fileURLToPath(new URL('../../../../test-servers/stdio.mjs', import.meta.url));

type Transport = ConstructorParameters<typeof Client>[0];

interface Connection {
  readonly name: string;
  readonly transport: () => Transport;
}

const REFERENCE: readonly Connection[] = [
  {
    name: 'v1 SDK over stdio',
    transport: () =>
      new StdioTransport({
        command: process.execPath,
        args: [stdioScript, '--profile', 'url-elicitation'],
        closeTimeout: 500,
      }),
  },
  {
    name: 'v1 SDK over Streamable HTTP',
    transport: () => new StreamableHttpTransport(`${servers.modes}/stateful?profile=url-elicitation`),
  },
];

/** A URL-mode elicitation as `url-required` hands it out. */
const elicitation = (id: string, url = `https://auth.example.com/${id}`) => ({
  mode: 'url',
  url,
  message: `Sign in (${id})`,
  elicitationId: id,
});

let keys = 0;
/** A `url-required` key of its own, so no test sees another's count. */
const freshKey = () => `key-${++keys}-${Date.now()}`;

/** A URL-mode handler that records what it was asked and answers `action` (or what `answer` says). */
function urlHandler(answer: (request: ElicitRequestParams) => ElicitResult | Promise<ElicitResult> = accept) {
  const asked: ElicitRequestParams[] = [];
  const handler = async (request: ElicitRequestParams): Promise<ElicitResult> => {
    asked.push(request);
    return answer(request);
  };
  return { asked, elicitation: { handler, url: true } } as const;
}

function accept(): ElicitResult {
  return { action: 'accept' };
}

async function connect(connection: Connection, options: ClientOptions) {
  const warnings: string[] = [];
  const client = new Client(connection.transport(), {
    requestTimeout: 5000,
    eraCache: new Map(),
    ...options,
    onWarning: (message) => warnings.push(message),
  });
  open.push(client);
  await client.connect();
  return { client, warnings };
}

/** What a call rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (result) => expect.unreachable(`resolved with ${JSON.stringify(result)}`),
    (error: unknown) => error,
  );
}

/** How many times the server ran `url-required` for `key`. */
async function callsOf(client: Client, key: string): Promise<string> {
  return (await client.callTool('url-required', { key, peek: true })).text;
}

describe.each(REFERENCE)('URL elicitation required (-32042): $name', (connection) => {
  it('hands each elicitation to the URL handler in turn, then sends the call once more', async () => {
    const { asked, elicitation: options } = urlHandler();
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const elicitations = [elicitation('first'), elicitation('second')];
    const result = await client.callTool('url-required', { key, elicitations, refusals: 1 });
    expect(result.text).toBe('calls: 2');
    expect(asked).toEqual(elicitations);
  });

  it("tells the handler which request was refused, and a handler awaiting context.completed holds the retry until the server's notifications/elicitation/complete", async () => {
    let asked!: () => void;
    const handlerRuns = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const contexts: HandlerContext[] = [];
    let completedSettled = false;
    const options = {
      url: true,
      handler: async (_request: ElicitRequestParams, context: HandlerContext): Promise<ElicitResult> => {
        contexts.push(context);
        asked();
        await context.completed;
        completedSettled = true;
        return { action: 'accept' };
      },
    };
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const call = client.callTool('url-required', { key, elicitations: [elicitation('flow')], refusals: 1 });
    await handlerRuns;
    expect(contexts[0]?.refusedRequest).toBe('tools/call');
    expect(contexts[0]?.completed).toBeInstanceOf(Promise);
    // A completion naming an id no handler waits on is ignored (2025-11-25: unknown ids MUST be ignored).
    await client.callTool('complete-url-elicitation', { elicitationId: 'someone-else' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(completedSettled).toBe(false);
    // The server says the flow ended: the retry has not gone out before that.
    expect((await client.callTool('complete-url-elicitation', { elicitationId: 'flow', key })).text).toBe('calls: 1');
    expect((await call).text).toBe('calls: 2');
    expect(completedSettled).toBe(true);
  });

  it('rejects with UrlElicitationRequiredError carrying the elicitations when the handler declines one, and sends nothing more', async () => {
    const { asked, elicitation: options } = urlHandler(() => ({ action: 'decline' }));
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const elicitations = [elicitation('first'), elicitation('second')];
    const error = await rejection(client.callTool('url-required', { key, elicitations, refusals: 1 }));
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: ErrorCode.UrlElicitationRequired, method: 'tools/call', elicitations });
    // The first was declined: the user is not asked about the second.
    expect(asked).toEqual([elicitations[0]]);
    expect(await callsOf(client, key)).toBe('calls: 1');
  });

  it('without a URL-mode handler, rejects with the typed error at once, so the app can still show the elicitations', async () => {
    const elicitations = [elicitation('only')];
    const formOnly = urlHandler();
    for (const options of [{ elicitation: formOnly.elicitation.handler }, {}]) {
      const { client } = await connect(connection, options);
      const key = freshKey();
      const error = await rejection(client.callTool('url-required', { key, elicitations, refusals: 1 }));
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect((error as UrlElicitationRequiredError).elicitations).toEqual(elicitations);
      expect(await callsOf(client, key)).toBe('calls: 1');
    }
    expect(formOnly.asked).toEqual([]);
  });

  it('without a URL-mode handler, more elicitations than limits.maxInputRequests still reject with the typed error: no one is asked, so there is nothing to bound', async () => {
    const elicitations = [elicitation('a'), elicitation('b'), elicitation('c')];
    const { client } = await connect(connection, { limits: { maxInputRequests: 2 } });
    const key = freshKey();
    const error = await rejection(client.callTool('url-required', { key, elicitations, refusals: 1 }));
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual(elicitations);
    expect(await callsOf(client, key)).toBe('calls: 1');
  });

  it('never loops: a retry refused with -32042 again rejects with the typed error of that second refusal', async () => {
    const { asked, elicitation: options } = urlHandler();
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const elicitations = [elicitation('again')];
    const error = await rejection(client.callTool('url-required', { key, elicitations }));
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).cause).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(await callsOf(client, key)).toBe('calls: 2');
  });

  it('declines a URL that is neither https: nor http: on loopback for the app (onWarning), and the call rejects', async () => {
    const { asked, elicitation: options } = urlHandler();
    const { client, warnings } = await connect(connection, { elicitation: options });
    const unsafe = [elicitation('script', 'javascript:alert(1)'), elicitation('plain', 'http://auth.example.com/x')];
    for (const item of unsafe) {
      const key = freshKey();
      const error = await rejection(client.callTool('url-required', { key, elicitations: [item], refusals: 1 }));
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect(await callsOf(client, key)).toBe('calls: 1');
    }
    expect(asked).toEqual([]);
    expect(warnings).toEqual([
      expect.stringContaining('javascript:'),
      expect.stringContaining('http://auth.example.com'),
    ]);
    // http: to this machine (a local sign-in page) is fine.
    const local = elicitation('local', 'http://127.0.0.1:8765/sign-in');
    const result = await client.callTool('url-required', { key: freshKey(), elicitations: [local], refusals: 1 });
    expect(result.text).toBe('calls: 2');
    expect(asked).toEqual([local]);
  });

  it("a handler that throws: the typed error, the handler's error as its cause, and no retry", async () => {
    const failure = new Error('the browser could not be opened');
    const { elicitation: options } = urlHandler(() => {
      throw failure;
    });
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const error = await rejection(
      client.callTool('url-required', { key, elicitations: [elicitation('x')], refusals: 1 }),
    );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as Error).cause).toBe(failure);
    expect(await callsOf(client, key)).toBe('calls: 1');
  });

  it('an abort while the handler waits rejects with the abort reason, and sends nothing more', async () => {
    const controller = new AbortController();
    const { elicitation: options } = urlHandler(
      (request) =>
        new Promise((resolve) => {
          controller.abort(new Error(`gave up on ${(request as { elicitationId?: string }).elicitationId}`));
          setTimeout(() => resolve({ action: 'accept' }), 50);
        }),
    );
    const { client } = await connect(connection, { elicitation: options });
    const key = freshKey();
    const call = client.callTool(
      'url-required',
      { key, elicitations: [elicitation('slow')], refusals: 1 },
      {
        signal: controller.signal,
      },
    );
    expect(await rejection(call)).toEqual(new Error('gave up on slow'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await callsOf(client, key)).toBe('calls: 1');
  });

  it('an error whose data is not a list of URL elicitations is a ProtocolError, the refusal its cause', async () => {
    const { asked, elicitation: options } = urlHandler();
    const { client } = await connect(connection, { elicitation: options });
    const malformed = [{ mode: 'url', message: 'no url', elicitationId: 'x' }];
    const error = await rejection(client.callTool('url-required', { key: freshKey(), elicitations: malformed }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).data.received).toEqual({ elicitations: malformed });
    expect((error as Error).cause).toBeInstanceOf(RpcError);
    expect(asked).toEqual([]);
  });

  it('limits.maxInputRequests: as many elicitations are handled, one more is a LimitError before any handler runs', async () => {
    const { asked, elicitation: options } = urlHandler();
    const { client } = await connect(connection, { elicitation: options, limits: { maxInputRequests: 2 } });
    const two = [elicitation('a'), elicitation('b')];
    expect((await client.callTool('url-required', { key: freshKey(), elicitations: two, refusals: 1 })).text).toBe(
      'calls: 2',
    );
    const three = [...two, elicitation('c')];
    const error = await rejection(
      client.callTool('url-required', { key: freshKey(), elicitations: three, refusals: 1 }),
    );
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRequests', value: 2 });
    expect((error as Error).cause).toBeInstanceOf(RpcError);
    expect(asked).toEqual(two);
  });
});

describe('URL elicitation required (-32042): server-everything trigger-url-elicitation (errorPath)', () => {
  let http: { url: string; stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    http = await startEverythingHttp();
  }, 20_000);
  afterAll(() => http?.stop());

  const everything: readonly Connection[] = [
    {
      name: 'stdio',
      transport: () =>
        new StdioTransport({ command: process.execPath, args: [...EVERYTHING_STDIO_ARGS], closeTimeout: 500 }),
    },
    { name: 'Streamable HTTP', transport: () => new StreamableHttpTransport(http!.url) },
  ];

  it.each(everything)(
    'over $name: the prerequisite reaches the handler, and the retry completes through the request path',
    async (connection) => {
      const { asked, elicitation: options } = urlHandler();
      const { client } = await connect(connection, { elicitation: options });
      const url = 'https://example.com/authorize';
      const result = await client.callTool('trigger-url-elicitation', { url, errorPath: true });
      expect(result.isError).toBe(false);
      expect(result.text).toContain('User completed the URL elicitation flow');
      // The error path's prerequisite, then the request path's own elicitation/create for the retried call.
      expect(asked.map((request) => request.mode === 'url' && request.url)).toEqual([
        'https://modelcontextprotocol.io',
        url,
      ]);
      expect(asked.every((request) => typeof (request as { elicitationId?: unknown }).elicitationId === 'string')).toBe(
        true,
      );
    },
    20_000,
  );

  it.each(everything)(
    'over $name: a declined prerequisite rejects with UrlElicitationRequiredError',
    async (connection) => {
      const { elicitation: options } = urlHandler(() => ({ action: 'cancel' }));
      const { client } = await connect(connection, { elicitation: options });
      const error = await rejection(
        client.callTool('trigger-url-elicitation', { url: 'https://example.com/declined', errorPath: true }),
      );
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect((error as UrlElicitationRequiredError).elicitations).toEqual([
        expect.objectContaining({
          mode: 'url',
          url: 'https://modelcontextprotocol.io',
          elicitationId: expect.any(String),
        }),
      ]);
    },
    20_000,
  );
});

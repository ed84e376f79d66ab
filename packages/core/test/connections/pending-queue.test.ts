import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConnectionEvent,
  DEFAULT_MAX_PENDING,
  type PendingElicitation,
  PendingQueue,
  type PendingQueueOptions,
  type PendingRequest,
  type PendingSampling,
} from '../../src/connections/index.js';
import {
  Client,
  ClientClosedError,
  ErrorCode,
  LimitError,
  McpError,
  ProtocolError,
  RpcError,
} from '../../src/index.js';
import { useStdio } from '../client/modern/modern-harness.js';

const spawn = useStdio();

/** A queue, what it told, and a way to wait until it holds `count` items. */
function watchedQueue(options: Partial<PendingQueueOptions> = {}) {
  const events: ConnectionEvent[] = [];
  let changes = 0;
  const waiters: { count: number; resolve: (items: readonly PendingRequest[]) => void }[] = [];
  const queue: PendingQueue = new PendingQueue({
    ...options,
    onChange: () => {
      changes++;
      for (const waiter of [...waiters]) {
        if (queue.items.length !== waiter.count) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(queue.items);
      }
    },
    onEvent: (event) => events.push(event),
  });
  const holding = (count: number) =>
    queue.items.length === count
      ? Promise.resolve(queue.items)
      : new Promise<readonly PendingRequest[]>((resolve) => waiters.push({ count, resolve }));
  return { queue, events, holding, changes: () => changes };
}

/** Opens a client to the reference server of `sdk` whose elicitation and sampling go to `queue`. */
async function open(sdk: 'v1' | 'v2', queue: PendingQueue): Promise<Client> {
  const { client } = await spawn(sdk, { elicitation: queue.elicitation, sampling: queue.sampling });
  return client;
}

const elicitation = (item: PendingRequest | undefined): PendingElicitation => {
  if (item?.kind !== 'elicitation') throw new Error(`expected an elicitation, got ${item?.kind}`);
  return item;
};
const sampling = (item: PendingRequest | undefined): PendingSampling => {
  if (item?.kind !== 'sampling') throw new Error(`expected a sampling request, got ${item?.kind}`);
  return item;
};
const outcomes = (events: ConnectionEvent[]) =>
  events.flatMap((event) => (event.type === 'pending' ? [`${event.request.id} ${event.outcome}`] : []));

const eras = [
  { sdk: 'v1', era: 'legacy', how: 'server requests' },
  { sdk: 'v2', era: 'modern', how: '2026-07-28 input requests' },
] as const;

describe.each(eras)('PendingQueue against the reference server $sdk ($how)', ({ sdk, era }) => {
  it('queues an elicitation until the UI responds, then the tool gets the answer', async () => {
    const { queue, events, holding } = watchedQueue();
    const client = await open(sdk, queue);
    expect(client.era).toBe(era);
    expect(queue.items).toEqual([]);

    const call = client.callTool('elicit', { message: 'Who are you?' });
    const [item] = await holding(1);
    const asked = elicitation(item);
    expect(asked.params).toMatchObject({ message: 'Who are you?', requestedSchema: { required: ['name'] } });
    expect(asked.signal.aborted).toBe(false);
    expect(Object.isFrozen(asked)).toBe(true);
    expect(Object.isFrozen(queue.items)).toBe(true);

    expect(asked.respond({ name: 'Ada' })).toBe(true);
    expect(queue.items).toEqual([]);
    expect(JSON.parse((await call).text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(outcomes(events)).toEqual([`${asked.id} added`, `${asked.id} answered`]);
    expect(asked.signal.aborted).toBe(false);
  });

  it('queues a sampling request until the UI responds with the model’s message', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const call = client.callTool('sample', { prompt: 'Say hi' });
    const asked = sampling((await holding(1))[0]);
    expect(asked.params).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
      maxTokens: 100,
    });
    expect(asked.respond({ role: 'assistant', content: { type: 'text', text: 'hi!' }, model: 'm' })).toBe(true);
    expect(await call).toMatchObject({ isError: false, text: 'hi!' });
  });

  it('declines and cancels an elicitation: the tool sees the action', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const declined = client.callTool('elicit');
    expect(elicitation((await holding(1))[0]).decline()).toBe(true);
    expect(JSON.parse((await declined).text)).toEqual({ action: 'decline' });

    const cancelled = client.callTool('elicit');
    expect(elicitation((await holding(1))[0]).cancel()).toBe(true);
    expect(JSON.parse((await cancelled).text)).toEqual({ action: 'cancel' });
  });

  it('a declined sampling request reaches the server as the user’s refusal (-1)', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const call = client.callTool('sample', { prompt: 'Say hi' });
    expect(sampling((await holding(1))[0]).decline()).toBe(true);
    if (era === 'legacy') {
      // The server got JSON-RPC error -1 and reports its message as the tool's error.
      expect(await call).toMatchObject({
        isError: true,
        text: expect.stringContaining('User rejected sampling request'),
      });
    } else {
      // 2026-07-28 has no error slot for an input: the call the server asked within fails, and is not retried.
      // It says the user declined (the server broke no rule), with the -1 refusal as its cause.
      const error = await call.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(McpError);
      expect(error).not.toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toMatch(
        /^tools\/call: the user declined the server's sampling\/createMessage request \(input "[^"]+"\): User rejected sampling request$/,
      );
      expect((error as Error).message).not.toContain('cannot answer');
      const cause = (error as Error).cause;
      expect(cause).toBeInstanceOf(RpcError);
      expect(cause).toMatchObject({ code: ErrorCode.UserRejected, rpcMessage: 'User rejected sampling request' });
    }
    expect(queue.items).toEqual([]);
  });

  it('an answer after the first is ignored: respond, decline and cancel return false and send nothing', async () => {
    const { queue, events, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const call = client.callTool('elicit');
    const asked = elicitation((await holding(1))[0]);
    expect(asked.respond({ name: 'first' })).toBe(true);
    expect(asked.respond({ name: 'second' })).toBe(false);
    expect(asked.decline()).toBe(false);
    expect(asked.cancel()).toBe(false);
    expect(JSON.parse((await call).text)).toEqual({ action: 'accept', content: { name: 'first' } });
    expect(outcomes(events)).toEqual([`${asked.id} added`, `${asked.id} answered`]);
  });

  it('a form answer that breaks the requestedSchema throws and leaves the request waiting for a corrected one', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const call = client.callTool('elicit');
    const asked = elicitation((await holding(1))[0]);
    expect(() => asked.respond({})).toThrow(
      new McpError('the answer does not fit the form: content.name: required, and missing'),
    );
    expect(() => asked.respond({ name: 7 })).toThrow(/content\.name: must be a string/);
    expect(() => asked.respond({ name: 'Ada', extra: true })).toThrow(/content\.extra: not a field of the form/);
    expect(queue.items).toEqual([asked]);
    expect(asked.respond({ name: 'Ada' })).toBe(true);
    expect(JSON.parse((await call).text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('a sampling result that is not a CreateMessageResult throws and leaves the request waiting', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const call = client.callTool('sample', { prompt: 'x' });
    const asked = sampling((await holding(1))[0]);
    expect(() => asked.respond({ role: 'assistant' } as never)).toThrow(McpError);
    expect(queue.items).toEqual([asked]);
    asked.respond({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' });
    expect((await call).text).toBe('ok');
  });

  it('a call aborted while its request waits: the item’s signal aborts and it leaves the queue, withdrawn', async () => {
    const { queue, events, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const controller = new AbortController();
    const call = client.callTool('elicit', {}, { signal: controller.signal });
    call.catch(() => {});
    const asked = elicitation((await holding(1))[0]);
    const withdrawn = holding(0);
    controller.abort(new Error('the user left the chat'));
    await expect(call).rejects.toThrow('the user left the chat');
    // Legacy: the server cancels its request (notifications/cancelled); 2026-07-28: the call's round ends.
    await withdrawn;
    expect(asked.signal.aborted).toBe(true);
    expect(outcomes(events)).toEqual([`${asked.id} added`, `${asked.id} withdrawn`]);
    expect(asked.respond({ name: 'too late' })).toBe(false);
    // The client still works, and the queue still takes requests.
    const next = client.callTool('elicit');
    elicitation((await holding(1))[0]).respond({ name: 'Ada' });
    expect(JSON.parse((await next).text)).toMatchObject({ action: 'accept' });
  });

  it('past maxPending a request is refused at once, and the ones waiting are untouched', async () => {
    const { queue, events, holding } = watchedQueue({ maxPending: 1 });
    const client = await open(sdk, queue);
    const first = client.callTool('elicit', { message: 'first' });
    const waiting = elicitation((await holding(1))[0]);
    const second = client.callTool('elicit', { message: 'second' });
    if (era === 'legacy') {
      // The server got -32603 with the limit's message.
      expect(await second).toMatchObject({ isError: true, text: expect.stringContaining('maxPending: 1') });
    } else {
      await expect(second).rejects.toSatisfy(
        (error: unknown) => error instanceof LimitError && error.limit === 'maxPending' && error.value === 1,
      );
    }
    expect(queue.items).toEqual([waiting]);
    expect(waiting.signal.aborted).toBe(false);
    waiting.respond({ name: 'Ada' });
    expect(JSON.parse((await first).text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(outcomes(events)).toEqual([`${waiting.id} added`, `${waiting.id} answered`]);
  });

  it('close() withdraws every waiting request, and later ones are refused without queueing', async () => {
    const { queue, events, holding } = watchedQueue();
    const client = await open(sdk, queue);
    const calls = [client.callTool('elicit'), client.callTool('sample', { prompt: 'x' })];
    for (const call of calls) call.catch(() => {});
    const items = await holding(2);
    const reason = new ClientClosedError('the connection closed');
    queue.close(reason);
    expect(queue.items).toEqual([]);
    expect(items.map((item) => [item.signal.aborted, item.signal.reason])).toEqual([
      [true, reason],
      [true, reason],
    ]);
    for (const call of calls) {
      if (era === 'legacy') {
        expect(await call).toMatchObject({ isError: true, text: expect.stringContaining('the connection closed') });
      } else {
        await expect(call).rejects.toBe(reason);
      }
    }
    expect(events.filter((event) => event.type === 'pending' && event.outcome === 'withdrawn')).toHaveLength(2);

    const later = client.callTool('elicit');
    if (era === 'legacy') expect(await later).toMatchObject({ isError: true });
    else await expect(later).rejects.toBe(reason);
    expect(queue.items).toEqual([]);
  });
});

describe('PendingQueue', () => {
  it('hands out one frozen items array per change, the same one between changes', async () => {
    const { queue, holding, changes } = watchedQueue();
    const client = await open('v1', queue);
    const empty = queue.items;
    expect(queue.items).toBe(empty);
    const calls = [client.callTool('elicit', { message: 'a' }), client.callTool('elicit', { message: 'b' })];
    const two = await holding(2);
    expect(queue.items).toBe(two);
    expect(changes()).toBe(2);
    expect(two.map((item) => elicitation(item).params.message)).toEqual(['a', 'b']);
    elicitation(two[0]).respond({ name: 'A' });
    const one = queue.items;
    expect(one).not.toBe(two);
    expect(two).toHaveLength(2);
    expect(one.map((item) => item.id)).toEqual([two[1]?.id]);
    elicitation(one[0]).decline();
    await Promise.all(calls);
    expect(changes()).toBe(4);
  });

  it('declares form and URL elicitation, and sampling with tools only when asked', async () => {
    const plain = new PendingQueue({ onChange: () => {} });
    expect(plain.elicitation.url).toBe(true);
    expect(plain.sampling.tools).toBe(false);
    expect(new PendingQueue({ onChange: () => {}, samplingTools: true }).sampling.tools).toBe(true);
    expect(DEFAULT_MAX_PENDING).toBe(8);
    for (const maxPending of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new PendingQueue({ onChange: () => {}, maxPending })).toThrow(RangeError);
    }
  });

  it('holds DEFAULT_MAX_PENDING requests by default and refuses the next', async () => {
    const { queue, holding } = watchedQueue();
    const client = await open('v1', queue);
    const calls = Array.from({ length: DEFAULT_MAX_PENDING }, (_, i) => client.callTool('elicit', { message: `${i}` }));
    await holding(DEFAULT_MAX_PENDING);
    expect(await client.callTool('elicit', { message: 'one too many' })).toMatchObject({
      isError: true,
      text: expect.stringContaining(`maxPending: ${DEFAULT_MAX_PENDING}`),
    });
    expect(queue.items).toHaveLength(DEFAULT_MAX_PENDING);
    for (const item of queue.items) item.cancel();
    for (const call of await Promise.all(calls)) expect(JSON.parse(call.text)).toEqual({ action: 'cancel' });
  });
});

describe('PendingQueue with URL-mode elicitation (2025-11-25, -32042)', () => {
  const stdioScript = fileURLToPath(new URL('../../../../test-servers/stdio.mjs', import.meta.url));
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('queues the elicitations of a refused request with refusedRequest; accepting retries the request', async () => {
    const { queue, holding } = watchedQueue();
    const transport = new StdioTransport({
      command: process.execPath,
      args: [stdioScript, '--sdk', 'v1', '--profile', 'url-elicitation'],
      closeTimeout: 500,
    });
    const client = new Client(transport, { eraCache: new Map(), elicitation: queue.elicitation });
    clients.push(client);
    await client.connect();
    const elicitations = [
      { mode: 'url', message: 'Sign in at the bank', url: 'https://bank.example/consent', elicitationId: 'e1' },
    ];
    const call = client.callTool('url-required', { key: 'k', elicitations, refusals: 1 });
    const asked = elicitation((await holding(1))[0]);
    expect(asked.params).toMatchObject({ mode: 'url', url: 'https://bank.example/consent' });
    expect(asked.refusedRequest).toBe('tools/call');
    expect(asked.completed).toBeInstanceOf(Promise);
    expect(() => asked.respond({ anything: 1 })).toThrow('a URL-mode elicitation is accepted without content');
    expect(asked.respond()).toBe(true);
    expect((await call).text).toBe('calls: 2');
  });
});

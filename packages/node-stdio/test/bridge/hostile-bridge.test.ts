import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FLOOD_NOTIFICATIONS,
  type HostileEndpoint,
  type HostileServer,
  HUGE_PAGE_TOOLS,
  SERVER_REQUEST_FLOOD,
  startHostileServer,
} from '../../../../test-servers/hostile/serve.mjs';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';
import { type SdkClient, sdkThroughBridge } from './bridge-peers.js';

// The hostile servers (test-servers/hostile) behind `mcp bridge`, driven on the
// local side by the official SDK's stdio client, as an IDE would. Each case: the
// local client gets an answer or a JSON-RPC error (never a hang), the next call
// on the same bridge works, the bridge's memory stays bounded, and it never
// crashes (bridge-peers.ts fails the test on an unhandled rejection or an
// uncaught exception in the bridge process).

const MiB = 1024 * 1024;

/**
 * How far the bridge's peak resident memory (VmHWM in /proc/<pid>/status) may
 * rise above its resident memory once connected, across one case. The cases
 * measured 1 to 55 MiB (Node 20, Linux x64): the deep values and the 5 MiB
 * page are parsed, held as objects and written out again. The bound catches a
 * bridge that buffers without end, not a leak of a few MiB. Not checked where
 * there is no /proc.
 */
const MEMORY_BOUND = 96 * MiB;

/** Requests the tests make of the bridge wait at most this long: a hang fails the case, not the file. */
const CALL_TIMEOUT = 10_000;

/** The message a result or notification that cannot be written is answered with. */
const NOT_SERIALISABLE = 'bridge: result not serialisable';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server?.close());

const open: SdkClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

type Era = 'legacy' | 'modern';

interface Behind {
  readonly client: SdkClient;
  readonly endpoint: HostileEndpoint;
  /** What the bridge wrote on stderr so far. */
  readonly stderr: () => string;
  /** How far the bridge's peak resident memory rose since it was connected; undefined off Linux. */
  readonly memoryGrowth: () => number | undefined;
}

/** One line of /proc/<pid>/status, in bytes (Linux only). */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

/** The SDK client through a fresh bridge to a fresh endpoint of `fault`, connected and checked healthy. */
async function behindBridge(
  fault: string,
  era: Era,
  options: {
    capabilities?: Record<string, unknown>;
    args?: readonly string[];
    setUp?: (client: SdkClient) => void;
  } = {},
): Promise<Behind> {
  const endpoint = server.endpoint(fault, era);
  const { client, transport, stderr } = await sdkThroughBridge(
    [endpoint.url, '--token-env', 'T', ...(options.args ?? [])],
    options.capabilities,
    { T: 'x' },
  );
  options.setUp?.(client);
  open.push(client);
  await client.connect(transport);
  await expectEcho(client);
  const pid = transport.pid as number;
  const before = memoryOf(pid, 'VmRSS');
  const memoryGrowth = () => {
    const peak = memoryOf(pid, 'VmHWM');
    return before === undefined || peak === undefined ? undefined : peak - before;
  };
  return { client, endpoint, stderr, memoryGrowth };
}

/** The healthy tool answers through the bridge: what every case checks before and after the fault. */
async function expectEcho(client: SdkClient): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'still here' } }, undefined, {
    timeout: CALL_TIMEOUT,
  });
  expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
}

/** The bridge is up (the next call works) and used no more memory than the bound. */
async function expectSurvived(behind: Behind): Promise<void> {
  await expectEcho(behind.client);
  const growth = behind.memoryGrowth();
  if (growth !== undefined) expect(growth, 'peak RSS growth of the bridge').toBeLessThan(MEMORY_BOUND);
}

function callHostile(client: SdkClient, args: Record<string, unknown> = {}, signal?: AbortSignal) {
  return client.callTool({ name: 'hostile', arguments: args }, undefined, {
    timeout: CALL_TIMEOUT,
    ...(signal && { signal }),
  });
}

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { text?: string }[]).map((part) => part.text ?? '').join('');

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + CALL_TIMEOUT;
  while (!condition()) {
    if (performance.now() > deadline) expect.fail(`not within ${CALL_TIMEOUT} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(['legacy', 'modern'] as const)('behind mcp bridge (%s era)', (era) => {
  it(`a tool result nested 100,000 arrays deep is answered with -32603 "${NOT_SERIALISABLE}"; the next call works`, async () => {
    const behind = await behindBridge('deep-json', era);
    const error = await callHostile(behind.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining(NOT_SERIALISABLE) });
    expect(behind.stderr()).toContain('not serialisable');
    await expectSurvived(behind);
  });

  it('a log message nested 100,000 arrays deep is dropped with a line on stderr; the call is answered', async () => {
    const logs: unknown[] = [];
    const behind = await behindBridge('deep-notification', era, {
      setUp: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          logs.push(notification.params);
        }),
    });
    expect(textOf(await callHostile(behind.client))).toBe('after the deep notification');
    await until(() => behind.stderr().includes('dropped notifications/message'), 'the drop reported on stderr');
    expect(logs).toEqual([]);
    await expectSurvived(behind);
  });

  it('a sampling request nested 100,000 arrays deep fails back to the remote, never reaching the local client; the call is answered', async () => {
    let sampled = 0;
    const behind = await behindBridge('deep-request', era, {
      capabilities: { sampling: {} },
      setUp: (client) =>
        client.setRequestHandler(CreateMessageRequestSchema, async () => {
          sampled++;
          return { role: 'assistant', model: 'local', content: { type: 'text', text: 'sampled' } };
        }),
    });
    const outcome = await callHostile(behind.client).then(
      (result) => textOf(result),
      (error: unknown) => error,
    );
    // Legacy: the remote hears the error and says so in its answer. 2026-07-28: the input round fails,
    // and so does the call, with the bridge's error.
    const refusal = { code: -32603, message: expect.stringContaining('bridge: request not serialisable') };
    expect(era === 'legacy' ? JSON.parse(outcome as string) : outcome).toMatchObject(refusal);
    expect(sampled).toBe(0);
    expect(behind.stderr()).toContain('did not ask the local client sampling/createMessage');
    await expectSurvived(behind);
  });

  it(`${SERVER_REQUEST_FLOOD} sampling, elicitation, roots and ping requests at once are each answered with a result or an error, or refused as one round`, async () => {
    const asked = { sampling: 0, elicitation: 0, roots: 0 };
    const behind = await behindBridge('server-request-flood', era, {
      capabilities: { sampling: {}, elicitation: {}, roots: {} },
      setUp: (client) => {
        client.setRequestHandler(CreateMessageRequestSchema, async () => {
          asked.sampling++;
          return { role: 'assistant', model: 'local', content: { type: 'text', text: 'sampled' } };
        });
        client.setRequestHandler(ElicitRequestSchema, async () => {
          asked.elicitation++;
          return { action: 'decline' };
        });
        client.setRequestHandler(ListRootsRequestSchema, async () => {
          asked.roots++;
          return { roots: [] };
        });
      },
    });
    const outcome = await callHostile(behind.client).then(
      (result) => JSON.parse(textOf(result)) as Record<string, number>,
      (error: unknown) => error,
    );
    if (era === 'legacy') {
      // Each request got its answer: the local client's, or the busy error past the bridge's handler slots.
      expect(outcome).toMatchObject({ none: 0 });
      expect((outcome as Record<string, number>).result).toBeGreaterThan(0);
      expect(asked.sampling + asked.elicitation + asked.roots).toBeGreaterThan(0);
    } else {
      // 2026-07-28: one round of that many input requests is refused whole, and nothing is asked locally.
      expect(outcome).toMatchObject({ code: -32603, message: expect.stringContaining('maxInputRequests') });
      expect(asked).toEqual({ sampling: 0, elicitation: 0, roots: 0 });
    }
    await expectSurvived(behind);
  });

  it('a call the remote never answers is given up when the local client cancels it: the remote hears, the slot is freed', async () => {
    const behind = await behindBridge('stall-before-headers', era, { args: ['--max-in-flight', '1'] });
    const controller = new AbortController();
    const call = callHostile(behind.client, {}, controller.signal);
    await until(
      () => behind.endpoint.stats.requests.some((request) => request.tool === 'hostile'),
      'the call reached the remote',
    );
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    // Legacy: the bridge's client sends notifications/cancelled; 2026-07-28 cancels by closing the request's stream.
    await until(
      () =>
        behind.endpoint.stats.clientGone > 0 ||
        behind.endpoint.stats.requests.some((request) => request.rpcMethod === 'notifications/cancelled'),
      'the remote heard of the cancellation',
    );
    // With one request in flight at most, this call is refused unless the cancelled one let go of its slot.
    await expectSurvived(behind);
  });
});

// What the bridge does the same whatever the remote's era: once, against a 2025-11-25 remote.
describe('behind mcp bridge (legacy era; the bridge does the same for 2026-07-28)', () => {
  const era = 'legacy';

  it(`a JSON-RPC error whose data nests 100,000 arrays deep is answered with -32603 "${NOT_SERIALISABLE}"; the next call works`, async () => {
    const behind = await behindBridge('deep-error', era);
    const error = await callHostile(behind.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining(NOT_SERIALISABLE) });
    await expectSurvived(behind);
  });

  it(`a tools/list page of ${HUGE_PAGE_TOOLS.toLocaleString('en')} tools (5 MiB) reaches the local client whole; memory stays bounded`, async () => {
    const behind = await behindBridge('huge-page', era);
    const { tools } = await behind.client.listTools(undefined, { timeout: CALL_TIMEOUT });
    expect(tools).toHaveLength(HUGE_PAGE_TOOLS + 2);
    expect(tools.at(-1)?.name).toBe(`tool-${HUGE_PAGE_TOOLS - 1}`);
    await expectSurvived(behind);
  });

  it(`${FLOOD_NOTIFICATIONS.toLocaleString('en')} log messages at 10,000/s are each delivered or dropped; the call is answered, memory stays bounded`, async () => {
    let logs = 0;
    const behind = await behindBridge('notification-flood', era, {
      setUp: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
          logs++;
        }),
    });
    expect(textOf(await callHostile(behind.client))).toBe('flood over');
    expect(logs).toBeGreaterThan(0);
    expect(logs).toBeLessThanOrEqual(FLOOD_NOTIFICATIONS);
    await expectSurvived(behind);
  });

  it('a call the remote never answers fails with -32603 after --timeout (500 ms here); the next call works', async () => {
    const behind = await behindBridge('stall-mid-sse', era, { args: ['--timeout', '500'] });
    const error = await callHostile(behind.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining('bridge:') });
    await expectSurvived(behind);
  });

  it('a JSON answer cut off mid-object fails with a JSON-RPC error; the next call works', async () => {
    const behind = await behindBridge('malformed-json', era);
    const error = await callHostile(behind.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining('bridge:') });
    await expectSurvived(behind);
  });

  it("an SSE event that is not JSON, on the call's stream, fails the call with -32603; the next call works", async () => {
    const behind = await behindBridge('sse-not-json', era);
    const error = await callHostile(behind.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining('not JSON') });
    await expectSurvived(behind);
  });

  it('1,000 responses to ids the bridge never sent are ignored; the call is answered', async () => {
    const behind = await behindBridge('id-churn', era);
    expect(textOf(await callHostile(behind.client))).toBe('after churn');
    await expectSurvived(behind);
  });
});

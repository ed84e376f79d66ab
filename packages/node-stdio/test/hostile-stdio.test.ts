import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions, LimitError, McpError, ProtocolError } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectHealthy, MiB, peakGrowthDuring, rejection, until } from '../../core/test/hostile/checks.js';

// The hostile-server suite over stdio: frame-level misbehaviour of a real
// child process (test-servers/hostile/stdio.mjs --misbehave <name>). Each
// case: a healthy call works, the hostile call gets a typed error or its
// answer, the bad frames are reported, and the next call works, unless the
// framing itself is lost (a line past the limit), which ends the connection.

const script = fileURLToPath(new URL('../../../test-servers/hostile/stdio.mjs', import.meta.url));
const FLOOD_NOTIFICATIONS = 10_000;
const CHURN_RESPONSES = 1000;

interface HostileStdio {
  readonly client: Client;
  readonly transport: StdioTransport;
  readonly errors: Error[];
}

const open: Client[] = [];
/** Every server process started, so the suite can tell none outlives its client. */
const pids: number[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
beforeEach(() => {
  rejections.length = 0;
  process.on('unhandledRejection', onRejection);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  for (const pid of pids.splice(0)) await until(() => !alive(pid), 3000, `server process ${pid} is gone after close()`);
  process.off('unhandledRejection', onRejection);
  expect(rejections, 'unhandled rejections').toEqual([]);
});

async function spawnHostile(
  misbehave: string,
  era: 'legacy' | 'modern',
  options: ClientOptions = {},
): Promise<HostileStdio> {
  const errors: Error[] = [];
  const transport = new StdioTransport({
    command: process.execPath,
    args: [script, '--misbehave', misbehave, '--era', era],
    stderr: 'ignore',
    maxMessageBytes: MiB,
    closeTimeout: 500,
  });
  const client = new Client(transport, { requestTimeout: 10_000, onError: (error) => errors.push(error), ...options });
  open.push(client);
  await client.connect();
  if (transport.pid !== undefined) pids.push(transport.pid);
  expect(client.era).toBe(era);
  await expectHealthy(client);
  return { client, transport, errors };
}

/** How many arrays deep `value` nests through first elements, and what is at the bottom (a loop: no stack to overflow). */
function arrayDepth(value: unknown): { depth: number; bottom: unknown } {
  let depth = 0;
  let bottom = value;
  while (Array.isArray(bottom)) {
    depth++;
    bottom = bottom[0];
  }
  return { depth, bottom };
}

/** Whether a process is still alive (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each(['legacy', 'modern'] as const)('hostile stdio server (%s era)', (era) => {
  it.each([
    ['oversized-line', 'a 4 MiB line'],
    ['endless-line', 'a line that never ends'],
  ])(
    '%s: %s under a 1 MiB limit fails with a maxMessageBytes LimitError in < 2 s, memory bounded, and the server process is stopped',
    async (fault) => {
      const { client, transport } = await spawnHostile(fault, era);
      const pid = transport.pid as number;
      const start = performance.now();
      const { value: error, peak } = await peakGrowthDuring(() => rejection(client.callTool('hostile')));
      expect(error).toBeInstanceOf(LimitError);
      expect(error).toMatchObject({ limit: 'maxMessageBytes', value: MiB });
      expect((error as Error).message).toMatch(/longer than 1048576 bytes/);
      expect(performance.now() - start).toBeLessThan(2000);
      expect(peak).toBeLessThan(32 * MiB);
      await until(() => !alive(pid), 3000, 'the server process is stopped');
      // Framing is lost, so the connection is over: later calls fail at once, typed, instead of hanging.
      expect(await rejection(client.callTool('echo', { text: 'x' }))).toBeInstanceOf(McpError);
    },
  );

  it('a cut-off JSON line and a line of text are reported as ProtocolErrors; the call gets its answer and the next call works', async () => {
    const { client, errors } = await spawnHostile('malformed-json', era);
    expect((await client.callTool('hostile')).text).toBe('after garbage');
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => error instanceof ProtocolError && /not JSON/.test(error.message))).toBe(true);
    await expectHealthy(client);
  });

  it('a line of bytes that are not UTF-8 is reported as a ProtocolError; the call gets its answer', async () => {
    const { client, errors } = await spawnHostile('binary-line', era);
    expect((await client.callTool('hostile')).text).toBe('after bytes');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    await expectHealthy(client);
  });

  it(`${CHURN_RESPONSES} responses to unknown ids are reported and skipped; the call gets its answer`, async () => {
    const { client, errors } = await spawnHostile('id-churn', era);
    expect((await client.callTool('hostile')).text).toBe('after churn');
    expect(errors).toHaveLength(CHURN_RESPONSES);
    expect(errors.every((error) => error instanceof ProtocolError)).toBe(true);
    await expectHealthy(client);
  });

  it(`${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications at 10,000/s are each handled or reported dropped; other calls answered in < 2 s`, async () => {
    let handled = 0;
    const { client, errors } = await spawnHostile('notification-flood', era, {
      limits: { maxConcurrentHandlers: 4 },
      onNotification: (method) => {
        if (method === 'notifications/message') handled++;
      },
    });
    const flood = client.callTool('hostile');
    for (let call = 0; call < 5; call++) {
      const start = performance.now();
      await expectHealthy(client);
      expect(performance.now() - start).toBeLessThan(2000);
    }
    expect((await flood).text).toBe('flood over');
    const dropped = errors.filter((error) => /dropped notifications\/message/.test(error.message));
    expect(errors.length - dropped.length).toBe(0);
    expect(handled + dropped.length).toBe(FLOOD_NOTIFICATIONS);
  });

  it('__proto__ and constructor keys in a result pollute nothing and do not make it an error', async () => {
    const { client } = await spawnHostile('proto-keys', era);
    const result = await client.callTool('hostile');
    expect(result.isError).not.toBe(true);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect((result as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((result.structuredContent as Record<string, unknown>).kept).toBe(1);
    expect(Object.getPrototypeOf(result.structuredContent)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectHealthy(client);
  });

  it('a result nested 100,000 arrays deep settles without a stack overflow, and the next call works', async () => {
    const { client } = await spawnHostile('deep-json', era);
    // Delivered whole: no recursive walk on the way (a RangeError would reject the call).
    const result = await client.callTool('hostile');
    expect(result.text).toBe('deep');
    expect(result.isError).not.toBe(true);
    const { value } = result.structuredContent as { value: unknown };
    expect(arrayDepth(value)).toEqual({ depth: 100_000, bottom: 'bottom' });
    await expectHealthy(client);
  });
});

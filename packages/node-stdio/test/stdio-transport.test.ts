import { fileURLToPath } from 'node:url';
import { ClientClosedError, LimitError, ProtocolError, TransportError, type TransportEvent } from '@mcp/core';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioTransport, type StdioTransportOptions } from '../src/index.js';
import { LineReader } from '../src/line-reader.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const open: StdioTransport[] = [];

/** A transport running `node fixtures/<name> ...args`, closed after the test. */
function server(name: string, args: string[] = [], options: Partial<StdioTransportOptions> = {}): StdioTransport {
  const transport = new StdioTransport({
    command: process.execPath,
    args: [fixture(name), ...args],
    closeTimeout: 300,
    ...options,
  });
  open.push(transport);
  return transport;
}

function events(transport: StdioTransport): AsyncIterator<TransportEvent> {
  return transport.messages()[Symbol.asyncIterator]();
}

async function next(iterator: AsyncIterator<TransportEvent>): Promise<TransportEvent> {
  const result = await iterator.next();
  if (result.done) throw new Error('the iteration ended early');
  return result.value;
}

async function nextMessage(iterator: AsyncIterator<TransportEvent>): Promise<unknown> {
  const event = await next(iterator);
  if (event.type !== 'message') throw event.error;
  return event.message;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

describe('StdioTransport', () => {
  it('round-trips JSON messages through a child process', async () => {
    const transport = server('echo.mjs');
    const inbound = events(transport);
    const params = { text: 'héllo, 世界 🌍', nested: { list: [1, null, true] } };
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo', params });
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: params } });
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'echo', params: { n: 2 } });
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', id: 2, result: { echo: { n: 2 } } });
  });

  it('reassembles lines split across chunks (even mid-character), strips CRLF and skips blank lines', async () => {
    const inbound = events(server('split-crlf.mjs'));
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', method: 'one', params: { text: 'café' } });
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', method: 'two' });
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', method: 'three' });
  });

  it('delivers a 5 MB line intact', async () => {
    const inbound = events(server('long-line.mjs', [String(5 * 1024 * 1024)]));
    const message = (await nextMessage(inbound)) as { params: { text: string } };
    const { text } = message.params;
    expect(text.length).toBe(3 * Math.ceil((5 * 1024 * 1024) / 5));
    expect(text).toBe('ab€'.repeat(text.length / 3));
  });

  it('reports a line that is not JSON, quoting a bounded excerpt, and still delivers the next message', async () => {
    const inbound = events(server('garbage-lines.mjs'));
    const first = await next(inbound);
    expect(first.type).toBe('error');
    const firstError = (first as { error: Error }).error;
    expect(firstError).toBeInstanceOf(ProtocolError);
    expect(firstError.message).toContain('this is not json');
    const second = await next(inbound);
    expect((second as { error: Error }).error).toBeInstanceOf(ProtocolError);
    expect((second as { error: Error }).error.message.length).toBeLessThan(400);
    expect(await nextMessage(inbound)).toEqual({ jsonrpc: '2.0', method: 'after-garbage' });
  });

  it('fails the stream with a maxMessageBytes LimitError on a line over the limit and stops the child', async () => {
    const transport = server('long-line.mjs', [String(1024 * 1024)], { maxMessageBytes: 64 * 1024, stderr: 'ignore' });
    const inbound = events(transport);
    const error = await inbound.next().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxMessageBytes', value: 64 * 1024 });
    expect((error as Error).message).toMatch(/longer than 65536 bytes/);
    await expect(inbound.next()).rejects.toThrow(LimitError);
    const pid = transport.pid as number;
    await transport.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('throws a TransportError naming the command and exit code when the child exits (code 3)', async () => {
    const transport = server('exit-code.mjs', ['3']);
    const inbound = events(transport);
    const error = await inbound.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^mcp server ".*exit-code\.mjs 3" exited with code 3$/);
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });

  it('rejects a send after the child died', async () => {
    const transport = server('exit-code.mjs', ['3']);
    await events(transport)
      .next()
      .catch(() => {});
    await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toThrow(/exited with code 3/);
  });

  it('fails iteration and sends with a TransportError naming a command that cannot start (ENOENT)', async () => {
    const transport = new StdioTransport({ command: 'mcp-no-such-server-7f3a', args: ['--x'] });
    open.push(transport);
    const sent = transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const inbound = events(transport);
    await expect(sent).rejects.toThrow(TransportError);
    const error = await inbound.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('"mcp-no-such-server-7f3a --x" could not start');
    expect((error as Error).message).toContain('ENOENT');
    expect(transport.pid).toBeUndefined();
  });

  it('reports arguments spawn rejects outright as a TransportError, not a synchronous throw', async () => {
    const transport = new StdioTransport({ command: 'bad\0name' });
    open.push(transport);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(TransportError);
    await expect(events(transport).next()).rejects.toThrow(/could not start/);
  });

  it('adds env entries to the inherited environment', async () => {
    const transport = server('print-env.mjs', ['MCP_TEST_ADDED', 'PATH'], { env: { MCP_TEST_ADDED: 'added value' } });
    expect(await nextMessage(events(transport))).toEqual({
      jsonrpc: '2.0',
      method: 'env',
      params: { MCP_TEST_ADDED: 'added value', PATH: process.env.PATH ?? null },
    });
  });

  describe('environment', () => {
    const SAFE = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
    const saved = { ...process.env };
    afterEach(() => {
      for (const name of ['MCP_TEST_SECRET', 'SHELL', 'TERM']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });

    async function childEnv(options: Partial<StdioTransportOptions> = {}): Promise<Record<string, string>> {
      const message = await nextMessage(events(server('print-env.mjs', [], options)));
      return (message as { params: Record<string, string> }).params;
    }

    it.skipIf(process.platform === 'win32')(
      'gives the server only PATH, HOME, USER, LOGNAME, SHELL, TERM and env, never our other variables',
      async () => {
        process.env.MCP_TEST_SECRET = 'sk-parent-secret';
        const env = await childEnv({ env: { MCP_TEST_ADDED: 'added' } });
        expect(env.MCP_TEST_SECRET).toBeUndefined();
        expect(env.MCP_TEST_ADDED).toBe('added');
        expect(env.PATH).toBe(process.env.PATH);
        for (const name of Object.keys(env)) expect([...SAFE, 'MCP_TEST_ADDED']).toContain(name);
        expect(JSON.stringify(env)).not.toContain('sk-parent-secret');
      },
    );

    it('hands over all of our environment with inheritEnv: true, env still on top', async () => {
      process.env.MCP_TEST_SECRET = 'sk-parent-secret';
      const env = await childEnv({ inheritEnv: true, env: { MCP_TEST_ADDED: 'added' } });
      expect(env.MCP_TEST_SECRET).toBe('sk-parent-secret');
      expect(env.MCP_TEST_ADDED).toBe('added');
    });

    it.skipIf(process.platform === 'win32')(
      'skips an inherited value that is a bash function (Shellshock), but passes one given in env',
      async () => {
        process.env.SHELL = '() { :; }; echo pwned';
        process.env.TERM = 'xterm-mcp-test';
        const env = await childEnv({ env: { MCP_TEST_FN: '() { :; }' } });
        expect(env.SHELL).toBeUndefined();
        expect(env.TERM).toBe('xterm-mcp-test');
        expect(env.MCP_TEST_FN).toBe('() { :; }');
      },
    );
  });

  it('hands stderr to a callback line by line', async () => {
    const lines: string[] = [];
    const transport = server('stderr-lines.mjs', [], { stderr: (line) => lines.push(line) });
    expect(await nextMessage(events(transport))).toEqual({ jsonrpc: '2.0', method: 'ready' });
    await transport.close();
    expect(lines).toEqual(['first line', 'second line']);
  });

  it('closes a well-behaved child by ending its stdin, without signals, and ends the iteration', async () => {
    const transport = server('echo.mjs', [], { closeTimeout: 5000 });
    const inbound = events(transport);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo' });
    await nextMessage(inbound);
    const pid = transport.pid as number;
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    expect(await inbound.next()).toEqual({ value: undefined, done: true });
  });

  it('kills a child that ignores stdin EOF and SIGTERM with SIGKILL, within bounded time', async () => {
    const transport = server('ignore-sigterm.mjs', [], { closeTimeout: 200 });
    expect(await nextMessage(events(transport))).toEqual({ jsonrpc: '2.0', method: 'ready' });
    const pid = transport.pid as number;
    const started = performance.now();
    await transport.close();
    const elapsed = performance.now() - started;
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGKILL' });
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(3000);
    expect(isAlive(pid)).toBe(false);
  });

  it('close is idempotent', async () => {
    const transport = server('echo.mjs');
    const inbound = events(transport);
    // Once the child answers it is running: closing its stdin then ends it cleanly (code 0) however
    // slowly a loaded machine started it, so the exit status below says what close did, not timing.
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo' });
    await inbound.next();
    const first = transport.close();
    const second = transport.close();
    await Promise.all([first, second]);
    await transport.close();
    expect(await inbound.next()).toEqual({ value: undefined, done: true });
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
  });

  it('rejects a send after close with ClientClosedError', async () => {
    const transport = server('echo.mjs');
    events(transport);
    await transport.close();
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'echo' })).rejects.toThrow(ClientClosedError);
  });
});

describe('LineReader', () => {
  const input = Buffer.from('{"a":"é€🌍"}\r\n\n\r\n{"b":2}\n  tail without newline');

  it('yields the same lines however the bytes are split into chunks', () => {
    for (let cut = 0; cut <= input.length; cut++) {
      for (let size = 1; size <= 7; size += 3) {
        const lines: string[] = [];
        const reader = new LineReader({ maxLineBytes: 1024, overflow: 'stop', onLine: (line) => lines.push(line) });
        reader.push(input.subarray(0, cut));
        for (let at = cut; at < input.length; at += size) reader.push(input.subarray(at, at + size));
        reader.end();
        expect(lines).toEqual(['{"a":"é€🌍"}', '{"b":2}', '  tail without newline']);
      }
    }
  });

  it('stops at the first line over the limit and ignores everything after', () => {
    const lines: string[] = [];
    const reader = new LineReader({ maxLineBytes: 8, overflow: 'stop', onLine: (line) => lines.push(line) });
    expect(reader.push(Buffer.from('12345678\n1234'))).toBe(true);
    expect(reader.push(Buffer.from('56789'))).toBe(false);
    expect(reader.push(Buffer.from('\nok\n'))).toBe(false);
    expect(lines).toEqual(['12345678']);
  });

  it('splits an over-long line in split mode instead of buffering it', () => {
    const lines: string[] = [];
    const reader = new LineReader({ maxLineBytes: 4, overflow: 'split', onLine: (line) => lines.push(line) });
    reader.push(Buffer.from('abcdefgh\nij\n'));
    expect(lines).toEqual(['abcdefgh', 'ij']);
    reader.push(Buffer.from('abc'));
    reader.push(Buffer.from('def'));
    reader.push(Buffer.from('g\n'));
    expect(lines).toEqual(['abcdefgh', 'ij', 'abcdef', 'g']);
  });
});

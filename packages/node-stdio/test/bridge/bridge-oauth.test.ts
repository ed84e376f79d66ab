import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../../test-servers/auth/serve.mjs';
import { parseCommandLine } from '../../src/cli/args.js';
import { runBridge } from '../../src/cli/bridge/bridge.js';
import { defaultTokenDirectory } from '../../src/cli/bridge/token-store.js';
import { run } from '../../src/cli/run.js';
import { initialize, rawBridge } from './bridge-peers.js';

let servers: AuthServers;
let directory: string;
beforeAll(async () => {
  servers = await startAuthServers();
  directory = await mkdtemp(join(tmpdir(), 'mcp-bridge-oauth-'));
});
afterAll(async () => {
  await servers?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** The browser of these tests: follows the auto-approving authorization server back to the loopback redirect. */
const followRedirects = (url: string) => fetch(url, { redirect: 'follow' });

/**
 * One run of the bridge in this process, its stdin a pipe: initialize, run
 * `beforeCall`, call `add` (or `call`), end stdin. Resolves with the exit status,
 * every message it wrote and its stderr.
 */
async function bridgeRun(
  argv: string[],
  openBrowser: (url: string) => unknown,
  call: Record<string, unknown> = { name: 'add', arguments: { a: 2, b: 3 } },
  beforeCall: () => Promise<void> = async () => {},
) {
  const command = parseCommandLine(argv);
  if (command.kind !== 'bridge') throw new Error('not a bridge command');
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  const messages = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const answer = async (id: number) => {
    for (;;) {
      const found = messages().find((message) => message.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const exit = runBridge(command, {
    stdin,
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    env: {},
    openBrowser,
  });
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ide', version: '1' } },
  });
  const initialized = await answer(1);
  await beforeCall();
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
  const called = await answer(2);
  stdin.end();
  return { code: await exit, initialized, called, stderr: err };
}

describe('mcp bridge with OAuth', () => {
  it('authorizes once through the loopback redirect, keeps the tokens in a 0600 file, and needs no browser the next run', async () => {
    const scenario = await servers.createScenario();
    const store = join(directory, 'store');
    const argv = ['bridge', scenario.info().mcp, '--token-store', store];
    let opened = 0;
    const first = await bridgeRun(argv, (url) => {
      opened++;
      return followRedirects(url);
    });
    expect(first.code).toBe(0);
    expect(first.initialized).toMatchObject({ result: { serverInfo: { name: 'mcp-reference-server' } } });
    expect(first.called).toMatchObject({ result: { structuredContent: { sum: 5 } } });
    expect(first.stderr).toMatch(/^mcp: authorize in your browser: http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/);
    expect(opened).toBe(1);

    const files = await readdir(store);
    expect(files).toHaveLength(1);
    expect((await stat(store)).mode & 0o777).toBe(0o700);
    expect((await stat(join(store, files[0] as string))).mode & 0o777).toBe(0o600);

    const second = await bridgeRun(argv, () => {
      throw new Error('the second run must not open a browser');
    });
    expect(second.code).toBe(0);
    expect(second.called).toMatchObject({ result: { structuredContent: { sum: 5 } } });
    expect(second.stderr).toBe('');
    expect(scenario.stats().registrations).toHaveLength(1);
  });

  it('two bridges sharing a store refresh one after the other with rotating refresh tokens: neither needs the browser', async () => {
    const scenario = await servers.createScenario();
    const store = join(directory, 'shared');
    const first = await bridgeRun(['bridge', scenario.info().mcp, '--token-store', store], followRedirects);
    expect(first.called).toMatchObject({ result: { structuredContent: { sum: 5 } } });
    const bridges = [0, 1].map(() => rawBridge([scenario.info().mcp, '--token-store', store]));
    for (const bridge of bridges) bridge.send(initialize(1));
    for (const bridge of bridges) {
      expect(await bridge.answer(1)).toMatchObject({ result: { serverInfo: { name: 'mcp-reference-server' } } });
    }
    // Both hold the same tokens; now both get 401 at once and refresh, and the server rotates the refresh token.
    scenario.expireTokens();
    const add = { name: 'add', arguments: { a: 1, b: 1 } };
    for (const bridge of bridges) bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: add });
    for (const bridge of bridges) {
      expect(await bridge.answer(2)).toMatchObject({ result: { structuredContent: { sum: 2 } } });
      bridge.child.stdin.end();
      expect(await bridge.exited).toBe(0);
      expect(bridge.stderr()).not.toContain('authorize in your browser');
    }
    const refreshes = scenario
      .stats()
      .requests.filter((request) => request.path.endsWith('/token') && request.form?.grant_type === 'refresh_token');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.every((request) => request.status === 200)).toBe(true);
    // One sign-in in all: the last tokens written are good for a third run.
    const third = await bridgeRun(['bridge', scenario.info().mcp, '--token-store', store], () => {
      throw new Error('the third run must not open a browser');
    });
    expect(third.called).toMatchObject({ result: { structuredContent: { sum: 5 } } });
  });

  it('a later run that needs the browser redirects to the URI it registered; when that port is taken, it registers anew', async () => {
    // No refresh tokens: once the access token expires, only the browser helps.
    const scenario = await servers.createScenario({ refreshTokens: false });
    const store = join(directory, 'port');
    const argv = ['bridge', scenario.info().mcp, '--token-store', store];
    const authorizeRedirects = () =>
      scenario
        .stats()
        .requests.filter((request) => request.path.endsWith('/authorize'))
        .map((request) => request.query.redirect_uri);
    const registered = () =>
      scenario.stats().registrations.map((entry) => (entry.metadata.redirect_uris as string[] | undefined)?.[0]);

    expect((await bridgeRun(argv, followRedirects)).called).toMatchObject({
      result: { structuredContent: { sum: 5 } },
    });
    scenario.expireTokens();
    expect((await bridgeRun(argv, followRedirects)).called).toMatchObject({
      result: { structuredContent: { sum: 5 } },
    });
    expect(registered()).toHaveLength(1);
    const [first] = registered();
    expect(authorizeRedirects()).toEqual([first, first]);

    // Something else listens on that port now.
    const port = Number(new URL(String(first)).port);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      scenario.expireTokens();
      expect((await bridgeRun(argv, followRedirects)).called).toMatchObject({
        result: { structuredContent: { sum: 5 } },
      });
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(registered()).toHaveLength(2);
    const second = registered()[1];
    expect(second).not.toBe(first);
    expect(authorizeRedirects()[2]).toBe(second);
  });

  it('a port taken between start and sign-in gets nothing: the sign-in holds a free port and registers anew', async () => {
    const scenario = await servers.createScenario({ refreshTokens: false });
    const store = join(directory, 'hijack');
    const argv = ['bridge', scenario.info().mcp, '--token-store', store];
    expect((await bridgeRun(argv, followRedirects)).called).toMatchObject({
      result: { structuredContent: { sum: 5 } },
    });
    const [first] = scenario.stats().registrations.map((entry) => entry.metadata.redirect_uris as string[]);
    const port = Number(new URL(String(first?.[0])).port);

    // Another local user binds the saved port once the bridge is up, then waits for a browser to bring it a code.
    const seen: string[] = [];
    const hostile = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.end();
    });
    hostile.on('connection', () => seen.push('connection'));
    const run = await bridgeRun(argv, followRedirects, undefined, async () => {
      scenario.expireTokens();
      await new Promise<void>((resolve) => hostile.listen(port, '127.0.0.1', resolve));
    });
    await new Promise((resolve) => hostile.close(resolve));
    expect(run.called).toMatchObject({ result: { structuredContent: { sum: 5 } } });
    expect(seen).toEqual([]);
    const registered = scenario.stats().registrations.map((entry) => (entry.metadata.redirect_uris as string[])[0]);
    expect(registered).toHaveLength(2);
    expect(registered[1]).not.toBe(registered[0]);
    const authorizeRedirects = scenario
      .stats()
      .requests.filter((request) => request.path.endsWith('/authorize'))
      .map((request) => request.query.redirect_uri);
    expect(authorizeRedirects).toEqual([registered[0], registered[1]]);
  });

  it("forwards a tools/call's _meta to a legacy server", async () => {
    const scenario = await servers.createScenario();
    const _meta = { 'example.com/trace': 'abc' };
    const argv = ['bridge', scenario.info().mcp, '--token-store', join(directory, 'meta')];
    const run = await bridgeRun(argv, followRedirects, { name: 'echo', arguments: { text: 'hi' }, _meta });
    expect(run.called).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
    const calls = scenario
      .stats()
      .requests.filter((request) => request.rpcMethod === 'tools/call' && request.status === 200);
    expect(calls.map((request) => (request.json as { params?: { _meta?: unknown } }).params?._meta)).toEqual([_meta]);
  });

  it('keeps tokens under $XDG_CONFIG_HOME/mcp/oauth, else ~/.config/mcp/oauth', () => {
    expect(defaultTokenDirectory({ XDG_CONFIG_HOME: '/cfg' })).toBe(join('/cfg', 'mcp', 'oauth'));
    expect(defaultTokenDirectory({})).toMatch(/[/\\]\.config[/\\]mcp[/\\]oauth$/);
  });
});

describe('mcp bridge usage', () => {
  it.each([
    [['bridge'], 'usage: mcp bridge <url>'],
    [['bridge', 'ftp://example.com/mcp'], 'mcp bridge takes an http(s) URL'],
    [['bridge', 'https://example.com/mcp', '--', 'node', 'server.mjs'], 'not to a server command'],
    [['bridge', 'https://example.com/mcp', '--header', 'no colon'], '--header takes "Name: value"'],
    [['bridge', 'https://example.com/mcp', '--token-env', 'A', '--token-store', '/tmp/x'], 'with --token-env'],
    [['bridge', 'https://example.com/mcp', '--max-in-flight', '0'], '--max-in-flight takes a positive whole number'],
    [['bridge', 'https://example.com/mcp', '--json'], 'mcp bridge does not take --json'],
    [['inspect', '--token-store', '/tmp/x', '--', 'node', 'server.mjs'], '--token-store: only mcp bridge takes these'],
  ])('refuses %j with exit status 2', async (argv, message) => {
    let stderr = '';
    const code = await run(argv, { stdout: { write: () => true }, stderr: { write: (chunk) => (stderr += chunk) } });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

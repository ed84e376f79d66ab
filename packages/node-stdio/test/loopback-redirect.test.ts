import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { loopbackAuthorize } from '@mcp/node-stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../test-servers/auth/serve.mjs';
import { run } from '../src/cli/run.js';
import { LOOPBACK_MAX_CONNECTIONS, LOOPBACK_MAX_HEADER_BYTES } from '../src/loopback-redirect.js';

let servers: AuthServers;
beforeAll(async () => {
  servers = await startAuthServers();
});
afterAll(() => servers?.close());

/** The browser of these tests: follows the auto-approving AS's redirect to the loopback callback. */
const followRedirects = (url: string) => fetch(url, { redirect: 'follow' });

function capture() {
  const chunks: string[] = [];
  return { write: (chunk: string) => chunks.push(chunk) > 0, text: () => chunks.join('') };
}

/** Listens on 127.0.0.1:`port` as another local process would; rejects with EADDRINUSE when it is held. */
async function bind(port: number) {
  const squatter = createServer();
  await new Promise<void>((resolve, reject) => {
    squatter.once('error', reject);
    squatter.listen(port, '127.0.0.1', resolve);
  });
  return squatter;
}

/**
 * A raw TCP connection to the loopback redirect, as any local process can open
 * one: resolves once connected, with what it has received so far and a promise
 * of its end (listened for from the start, as the listener may cut it at once).
 */
function openConnection(redirectUri: string) {
  const { port } = new URL(redirectUri);
  return new Promise<{ socket: Socket; received: () => string; closed: Promise<void> }>((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
  });
}

/**
 * A local process that sends the head of a request to the callback path one
 * byte every 500 ms, `bytes` in all, then ends the head. `closed` resolves when
 * the connection ends, with how many bytes were still to send then (0: the drip
 * had finished).
 */
async function dripper(redirectUri: string, bytes: number) {
  const connection = await openConnection(redirectUri);
  const { socket } = connection;
  socket.write(`GET ${new URL(redirectUri).pathname}?code=drip HTTP/1.1\r\nhost: 127.0.0.1\r\nx-drip: `);
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return;
    sent++;
    socket.write(sent < bytes ? 'a' : 'a\r\n\r\n');
    if (sent === bytes) clearInterval(timer);
  }, 500);
  const closed = connection.closed.then(() => {
    clearInterval(timer);
    return bytes - sent;
  });
  return { received: connection.received, left: () => bytes - sent, closed };
}

describe('loopbackAuthorize', () => {
  it('authorizes a client through 127.0.0.1, again for step-up on the same port, which it holds in between so no other process takes it', async () => {
    const scenario = await servers.createScenario({ toolScopes: { add: 'mcp:write' } });
    const loopback = await loopbackAuthorize({ openBrowser: followRedirects });
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const auth = new OAuthProvider({
      redirectUri: loopback.redirectUri,
      authorize: loopback.authorize,
      clientMetadata: { client_name: 'loopback test', application_type: 'native' },
    });
    await using client = new Client(new StreamableHttpTransport(scenario.info().mcp, { auth }));
    await client.connect();
    // Between authorizations the port is still ours: another listener cannot take the redirect URI.
    expect((await fetch(loopback.redirectUri)).status).toBe(400);
    await expect(bind(Number(new URL(loopback.redirectUri).port))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });

    const { registrations, requests } = scenario.stats();
    expect(registrations).toMatchObject([
      { via: 'dcr', metadata: { redirect_uris: [loopback.redirectUri], application_type: 'native' } },
    ]);
    const authorizations = requests.filter((entry) => entry.path.endsWith('/authorize'));
    expect(authorizations.map((entry) => entry.query.redirect_uri)).toEqual([
      loopback.redirectUri,
      loopback.redirectUri,
    ]);
    await loopback.close();
    await expect(fetch(loopback.redirectUri)).rejects.toThrow();
  });

  it('answers stray requests without settling, then resolves with the callback that carries a code', async () => {
    const loopback = await loopbackAuthorize({
      openBrowser: async () => {
        expect((await fetch(new URL('/favicon.ico', loopback.redirectUri))).status).toBe(404);
        expect((await fetch(loopback.redirectUri)).status).toBe(400);
        const page = await fetch(`${loopback.redirectUri}?code=c1&state=s1`);
        expect(await page.text()).toContain('You can close this window');
      },
    });
    const callback = await loopback.authorize(new URL('https://as.example/authorize?x=1&state=s1'));
    expect(callback).toBe(`${loopback.redirectUri}?code=c1&state=s1`);
    await loopback.close();
  });

  it('refuses callbacks without the state of the authorization URL, however many, and resolves with the one that has it', async () => {
    const refused: number[] = [];
    const loopback = await loopbackAuthorize({
      timeoutMs: 10_000,
      openBrowser: async () => {
        const forged = [
          '?code=attacker&state=other',
          '?code=attacker',
          '?error=access_denied&state=other',
          '?error=access_denied',
          '?code=attacker&state=',
          '?code=attacker&state=EXPECTED-STATE',
        ];
        for (let round = 0; round < 20; round++) {
          for (const query of forged) {
            const page = await fetch(loopback.redirectUri + query);
            refused.push(page.status);
            expect(await page.text()).toContain('does not belong to the authorization in progress');
          }
        }
        await fetch(`${loopback.redirectUri}?code=real&state=expected-state`);
      },
    });
    const callback = await loopback.authorize(new URL('https://as.example/authorize?state=expected-state'));
    expect(callback).toBe(`${loopback.redirectUri}?code=real&state=expected-state`);
    expect(refused).toHaveLength(120);
    expect(new Set(refused)).toEqual(new Set([400]));
    // Settled: a late callback, even with the right state, changes nothing.
    const late = await fetch(`${loopback.redirectUri}?code=late&state=expected-state`);
    expect(await late.text()).toContain('No authorization is in progress');
    await loopback.close();
  });

  it('settles as soon as the right callback comes while another local connection drips bytes, and cuts that connection', async () => {
    let drip: Awaited<ReturnType<typeof dripper>> | undefined;
    const loopback = await loopbackAuthorize({
      timeoutMs: 30_000,
      openBrowser: async () => {
        drip = await dripper(loopback.redirectUri, 20);
        await fetch(`${loopback.redirectUri}?code=real&state=s`);
      },
    });
    const callback = await loopback.authorize(new URL('https://as.example/authorize?state=s'));
    expect(callback).toBe(`${loopback.redirectUri}?code=real&state=s`);
    if (!drip) throw new Error('the dripper never started');
    // Settled mid-drip: the slow connection held nothing back, and it was cut rather than waited for.
    expect(drip.left()).toBeGreaterThan(0);
    expect(await drip.closed).toBeGreaterThan(0);
    await loopback.close();
  });

  // Retried: its head and idle bounds are real timers, and once in a loaded full run the 408 beat the cut.
  it('cuts a connection that sends its request head forever, and one that sends nothing, and goes on waiting for the browser', {
    retry: 2,
    timeout: 30_000,
  }, async () => {
    const loopback = await loopbackAuthorize({ timeoutMs: 30_000, openBrowser: () => {} });
    const waiting = loopback.authorize(new URL('https://as.example/authorize?state=s'));
    const silent = await openConnection(loopback.redirectUri);
    const drip = await dripper(loopback.redirectUri, 30);
    // Cut by the header timeout long before its 30 bytes (15 s) are out.
    expect(await drip.closed).toBeGreaterThan(0);
    expect(drip.received()).toMatch(/^HTTP\/1\.1 408 /);
    await silent.closed;
    expect(silent.received()).toBe('');
    await fetch(`${loopback.redirectUri}?code=real&state=s`);
    expect(await waiting).toBe(`${loopback.redirectUri}?code=real&state=s`);
    await loopback.close();
  });

  it('holds at most LOOPBACK_MAX_CONNECTIONS connections, closing the oldest, so held connections cannot keep the browser out', async () => {
    const loopback = await loopbackAuthorize({ timeoutMs: 30_000, openBrowser: () => {} });
    const waiting = loopback.authorize(new URL('https://as.example/authorize?state=s'));
    const held = [];
    for (let i = 0; i < LOOPBACK_MAX_CONNECTIONS + 10; i++) held.push(await openConnection(loopback.redirectUri));
    // The ten oldest make room for the newer ones, unanswered.
    const oldest = held.slice(0, 10);
    await Promise.all(oldest.map((connection) => connection.closed));
    expect(oldest.map((connection) => connection.received())).toEqual(Array(10).fill(''));
    // All the room is taken by silent connections; the browser's still gets through.
    await fetch(`${loopback.redirectUri}?code=real&state=s`);
    expect(await waiting).toBe(`${loopback.redirectUri}?code=real&state=s`);
    // Settling cut the rest.
    await Promise.all(held.map((connection) => connection.closed));
    await loopback.close();
  });

  it('answers a request whose body never ends and closes its connection', async () => {
    const loopback = await loopbackAuthorize({ timeoutMs: 30_000, openBrowser: () => {} });
    const waiting = loopback.authorize(new URL('https://as.example/authorize?state=s'));
    const body = await openConnection(loopback.redirectUri);
    body.socket.write(
      'POST /callback?code=forged&state=other HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n',
    );
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < 100 && !body.socket.destroyed) body.socket.write('a', () => sent++);
    }, 200);
    await body.closed;
    clearInterval(drip);
    expect(body.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(sent).toBeLessThan(100);
    await fetch(`${loopback.redirectUri}?code=real&state=s`);
    expect(await waiting).toBe(`${loopback.redirectUri}?code=real&state=s`);
    await loopback.close();
  });

  it('refuses a callback whose request head is past LOOPBACK_MAX_HEADER_BYTES with 431, and goes on waiting', async () => {
    const loopback = await loopbackAuthorize({ timeoutMs: 30_000, openBrowser: () => {} });
    const waiting = loopback.authorize(new URL('https://as.example/authorize?state=s'));
    const padding = 'x'.repeat(LOOPBACK_MAX_HEADER_BYTES);
    const oversized = await fetch(`${loopback.redirectUri}?code=big&state=s`, { headers: { 'x-padding': padding } });
    expect(oversized.status).toBe(431);
    await fetch(`${loopback.redirectUri}?code=real&state=s`);
    expect(await waiting).toBe(`${loopback.redirectUri}?code=real&state=s`);
    await loopback.close();
  });

  it('still times out while only wrong-state callbacks arrive', async () => {
    const loopback = await loopbackAuthorize({
      timeoutMs: 300,
      openBrowser: async () => {
        expect((await fetch(`${loopback.redirectUri}?code=attacker&state=other`)).status).toBe(400);
      },
    });
    await expect(loopback.authorize(new URL('https://as.example/authorize?state=s'))).rejects.toThrow(/timed out/);
    await loopback.close();
  });

  it('gives up after the timeout with a TimeoutError naming timeoutMs, and refuses non-web authorization URLs without opening anything', async () => {
    let opened = 0;
    const loopback = await loopbackAuthorize({ timeoutMs: 50, openBrowser: () => void opened++ });
    await expect(loopback.authorize(new URL('https://as.example/authorize'))).rejects.toMatchObject({
      name: 'TimeoutError',
      message: expect.stringMatching(/as\.example: timed out after 50 ms \(timeoutMs\)/),
    });
    await expect(loopback.authorize(new URL('javascript:alert(1)'))).rejects.toThrow(/https is required/);
    await expect(loopback.authorize(new URL('http://as.example/authorize'))).rejects.toThrow(/https is required/);
    expect(opened).toBe(1);
    await loopback.close();
  });

  it.each([0, -1, Number.NaN])('refuses timeoutMs %s at once with a RangeError', async (timeoutMs) => {
    await expect(loopbackAuthorize({ timeoutMs })).rejects.toThrow(RangeError);
  });

  it.each([Number.POSITIVE_INFINITY, 2 ** 32])(
    'waits with timeoutMs %s instead of timing out at once',
    async (timeoutMs) => {
      const controller = new AbortController();
      const loopback = await loopbackAuthorize({ timeoutMs, openBrowser: () => {}, signal: controller.signal });
      const waiting = loopback.authorize(new URL('https://as.example/authorize?state=s'));
      const outcome = await Promise.race([
        waiting.then(
          () => 'resolved',
          (error: unknown) => `rejected: ${(error as Error).message}`,
        ),
        new Promise((resolve) => setTimeout(resolve, 100, 'still waiting')),
      ]);
      expect(outcome).toBe('still waiting');
      controller.abort();
      await expect(waiting).rejects.toThrow();
      await loopback.close();
    },
  );

  it('refuses a non-web authorization URL with insecure_endpoint, and opens http only on this machine', async () => {
    const opened: string[] = [];
    const loopback = await loopbackAuthorize({ timeoutMs: 50, openBrowser: (url) => void opened.push(url) });
    for (const url of ['javascript:alert(1)', 'http://localhost.example.com/authorize']) {
      await expect(loopback.authorize(new URL(url))).rejects.toMatchObject({
        name: 'AuthError',
        code: 'insecure_endpoint',
      });
    }
    for (const url of [
      'http://localhost.:8080/authorize',
      'http://app.localhost/authorize',
      'http://127.1/authorize',
    ]) {
      await expect(loopback.authorize(new URL(url))).rejects.toThrow(/timed out/);
    }
    expect(opened).toEqual([
      'http://localhost.:8080/authorize',
      'http://app.localhost/authorize',
      'http://127.0.0.1/authorize',
    ]);
    await loopback.close();
  });

  it.runIf(process.platform === 'linux')(
    'opens the system browser with the URL as one argument, through no shell',
    async () => {
      const bin = await mkdtemp(join(tmpdir(), 'mcp-browser-'));
      const seen = join(bin, 'seen.txt');
      await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s|%s' "$#" "$1" > '${seen}'\n`);
      await chmod(join(bin, 'xdg-open'), 0o755);
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        const loopback = await loopbackAuthorize({ timeoutMs: 2_000 });
        const hostile = new URL("https://as.example/authorize?a=1&b=$(touch x);echo 'y'");
        const waiting = loopback.authorize(hostile);
        let recorded = '';
        for (let tries = 0; recorded === '' && tries < 100; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          recorded = await readFile(seen, 'utf8').catch(() => '');
        }
        expect(recorded).toBe(`1|${hostile.href}`);
        await fetch(`${loopback.redirectUri}?error=access_denied`);
        expect(await waiting).toBe(`${loopback.redirectUri}?error=access_denied`);
        await loopback.close();
      } finally {
        process.env.PATH = path;
        await rm(bin, { recursive: true, force: true });
      }
    },
  );
});

describe('mcp inspect --url', () => {
  it('authorizes through the loopback redirect and inspects the protected server, printing no token', async () => {
    const scenario = await servers.createScenario();
    const stdout = capture();
    const stderr = capture();
    const code = await run(['inspect', '--url', scenario.info().mcp], {
      stdout,
      stderr,
      env: {},
      openBrowser: followRedirects,
    });
    expect(stderr.text()).toMatch(/^mcp: authorize in your browser: http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/);
    expect(code).toBe(0);
    expect(stdout.text().split('\n')[0]).toBe('MCP Reference Server');
    const tokens = scenario.stats().requests.flatMap((entry) => entry.headers.authorization ?? []);
    expect(tokens.length).toBeGreaterThan(0);
    for (const header of tokens) {
      const token = header.replace(/^Bearer /, '');
      expect(stdout.text() + stderr.text()).not.toContain(token);
    }
    expect(scenario.stats().registrations[0]?.metadata).toMatchObject({
      client_name: 'mcp command-line tool',
      application_type: 'native',
    });
  });

  it('refuses --url together with a server command, and a URL that is not http(s)', async () => {
    const io = () => ({ stdout: capture(), stderr: capture(), env: {} });
    const both = io();
    expect(await run(['inspect', '--url', 'http://127.0.0.1:1/mcp', '--', 'node', 'x.mjs'], both)).toBe(2);
    expect(both.stderr.text()).toContain('give either --url or a server command');
    const ftp = io();
    expect(await run(['inspect', '--url', 'ftp://example.com/mcp'], ftp)).toBe(2);
    expect(ftp.stderr.text()).toContain('--url takes an http(s) URL');
  });
});

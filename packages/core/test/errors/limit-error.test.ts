import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  ClientClosedError,
  LimitError,
  McpError,
  OAuthProvider,
  StreamableHttpTransport,
} from '../../src/index.js';
import { listSkills, loadSkill, SKILLS_EXTENSION } from '../../src/skills/index.js';
import { callThrough, json, paddedJson, startHostileOAuthServer } from '../auth/hostile-oauth-server.js';
import { MiB, rejection } from '../hostile/checks.js';
import { catalog, startSkillsServer } from '../skills/skills-server.js';

// Every bound of OAuth, stdio and skills, driven past its value by a real peer: the failure is a
// LimitError naming the option as a caller writes it and the value in force, and what comes after works.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The rejection of `promise`, which must be a LimitError for `limit` at `value`. */
async function limitError(promise: Promise<unknown>, limit: string, value: number): Promise<LimitError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(LimitError);
  expect(error).toBeInstanceOf(McpError);
  expect(error).toMatchObject({ name: 'LimitError', limit, value });
  expect((error as Error).message).toContain(`(${limit}: ${value})`);
  return error as LimitError;
}

describe('LimitError', () => {
  it('names the option and its value after the message, and chains a cause', () => {
    const cause = new Error('the reader stopped');
    const error = new LimitError('limits.maxPages', 20, 'tools/list: the server sent more than 20 pages', { cause });
    expect(error.message).toBe('tools/list: the server sent more than 20 pages (limits.maxPages: 20)');
    expect(error).toMatchObject({ limit: 'limits.maxPages', value: 20, cause });
  });
});

describe('OAuth bounds', () => {
  async function oauthServer() {
    const server = await startHostileOAuthServer();
    closers.push(() => server.close());
    return server;
  }
  const machine = (issuer: string, options: ConstructorParameters<typeof OAuthProvider>[0] = {}) =>
    new OAuthProvider({
      grant: { type: 'client_credentials', issuer, client: { client_id: 'm', client_secret: 's' } },
      ...options,
    });

  it('limits.maxResponseBytes: metadata past it fails the request, and the same provider works once it fits', async () => {
    const server = await oauthServer();
    const prm = '/.well-known/oauth-protected-resource/mcp';
    server.route(prm, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(paddedJson(64 * 1024));
    });
    const auth = machine(server.origin, { limits: { maxResponseBytes: 16 * 1024 } });
    const error = await limitError(callThrough(`${server.base}/mcp`, auth), 'limits.maxResponseBytes', 16 * 1024);
    expect(error.message).toContain(`protected resource metadata ${server.origin}${prm}`);

    server.route(prm, (_req, res) =>
      json(res, 200, { resource: `${server.origin}/mcp`, authorization_servers: [server.origin] }),
    );
    expect((await callThrough(`${server.base}/mcp`, auth)).status).toBe(200);
  });

  it('maxAttempts: a server that refuses every token ends the flow, and the provider recovers once it accepts', async () => {
    const server = await oauthServer();
    const refuse = (res: ServerResponse) =>
      json(
        res,
        401,
        {},
        { 'www-authenticate': `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"` },
      );
    server.route('/mcp', (_req, res) => refuse(res));
    const auth = machine(server.origin, { maxAttempts: 2 });
    const error = await limitError(callThrough(`${server.base}/mcp`, auth), 'maxAttempts', 2);
    expect(error.message).toContain('after 2 authorizations');
    expect(server.seen.filter((request) => request.path === '/token')).toHaveLength(2);

    server.route('/mcp', (req, res) => {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (server.issued.has(token)) json(res, 200, { ok: true });
      else refuse(res);
    });
    expect((await callThrough(`${server.base}/mcp`, auth)).status).toBe(200);
  });
});

describe('stdio bounds', () => {
  const hostile = fileURLToPath(new URL('../../../../test-servers/hostile/stdio.mjs', import.meta.url));
  async function connect(misbehave: string) {
    const transport = new StdioTransport({
      command: process.execPath,
      args: [hostile, '--misbehave', misbehave],
      stderr: 'ignore',
      maxMessageBytes: MiB,
      closeTimeout: 500,
    });
    const client = new Client(transport, { requestTimeout: 10_000, onError: () => {} });
    closers.push(() => client.close());
    await client.connect();
    return { client, transport };
  }

  it.each(['oversized-line', 'endless-line'])(
    'maxMessageBytes: %s fails the call; the connection ends, later calls fail at once naming it, and a new one works',
    async (misbehave) => {
      const { client, transport } = await connect(misbehave);
      expect((await client.callTool('echo', { text: 'before' })).text).toContain('before');
      const error = await limitError(client.callTool('hostile'), 'maxMessageBytes', MiB);
      expect(error.message).toMatch(/wrote a line longer than 1048576 bytes/);
      // The client is closed by the ending: a later call fails at once, and says why.
      const after = await rejection(client.callTool('echo', { text: 'after' }));
      expect(after).toBeInstanceOf(ClientClosedError);
      expect((after as Error).cause).toBe(error);
      await expect.poll(() => transport.exitStatus, { timeout: 3000 }).toBeDefined();

      const fresh = await connect(misbehave);
      expect((await fresh.client.callTool('echo', { text: 'again' })).text).toContain('again');
    },
  );
});

describe('skills bounds', () => {
  const SKILLS = {
    'alpha/SKILL.md': '---\nname: alpha\ndescription: First\n---\nA.\n',
    'beta/SKILL.md': '---\nname: beta\ndescription: Second\n---\nB.\n',
    'beta/references/BIG.md': 'x'.repeat(4096),
    'gamma/SKILL.md': '---\nname: gamma\ndescription: Third\n---\nC.\n',
  };

  async function connect(pageSize: number) {
    const server = await startSkillsServer(await catalog(SKILLS, pageSize));
    const client = new Client(new StreamableHttpTransport(server.url), {
      capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
    });
    closers.push(
      () => server.close(),
      () => client.close(),
    );
    await client.connect();
    return { client, server };
  }

  it('maxPages: a listing longer than it fails, and the same client lists it all with a larger bound', async () => {
    const { client } = await connect(1);
    const error = await limitError(listSkills(client, { maxPages: 2 }), 'maxPages', 2);
    expect(error.message).toContain('skills/list');
    expect((await listSkills(client, { maxPages: 3 })).map((skill) => skill.frontmatter.name).sort()).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
  });

  it('maxBytes: a skill listed past it is refused before any read, and one within it loads', async () => {
    const { client, server } = await connect(100);
    const skills = await listSkills(client);
    const beta = skills.find((skill) => skill.frontmatter.name === 'beta');
    const alpha = skills.find((skill) => skill.frontmatter.name === 'alpha');
    if (!beta || !alpha) throw new Error('alpha and beta are listed');
    const error = await limitError(loadSkill(client, beta, { maxBytes: 1024 }), 'maxBytes', 1024);
    expect(error.message).toContain(beta.uri);
    expect(server.reads).toEqual([]);

    expect((await loadSkill(client, alpha, { maxBytes: 1024 })).files).toHaveLength(1);
    expect((await loadSkill(client, beta, { maxBytes: 1024, supportingFiles: false })).files).toHaveLength(1);
  });
});

/**
 * `mcp … --url` against real HTTP servers (test-servers/http): the headers and
 * bearer token it sends, what it says about a URL that serves no MCP, and the
 * era and transport `mcp inspect` reports.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultScenario, readFaultStats } from '../../../runtimes/faults.js';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { run } from '../src/cli/run.js';

interface Servers {
  readonly modes: string;
  readonly faults: string;
  close(): Promise<void>;
}

/** One request a fault scenario saw; header names are lower-case. */
interface SeenRequest {
  readonly httpMethod: string;
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
}

let servers: Servers;
beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers?.close());

/** Runs the CLI in-process with `env` as its environment; there is no terminal. */
async function mcp(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env,
  });
  return { code, stdout, stderr };
}

/** A fault scenario in front of a real v1 server, with `rules`; `requests()` is what it saw. */
async function scenario(rules: unknown[] = []) {
  const { mcp: url, stats } = await createFaultScenario(servers.faults, { inner: 'stateful', rules });
  return {
    url: url as string,
    requests: async () => ((await readFaultStats(stats)) as { requests: SeenRequest[] }).requests,
  };
}

const SECRET = 'sekrit-cli-4711';

describe('mcp --url with --header and --token-env', () => {
  it('sends both on every request of inspect and call, and never prints the token', async () => {
    const remote = await scenario();
    const flags = ['--url', remote.url, '--header', 'X-Team: blue', '--token-env', 'MCP_TOKEN'];
    const call = await mcp(['call', 'echo', '{"text":"hi"}', ...flags], { MCP_TOKEN: SECRET });
    expect(call).toEqual({ code: 0, stdout: 'hi\n', stderr: '' });
    const inspect = await mcp(['inspect', '--json', ...flags], { MCP_TOKEN: SECRET });
    expect(inspect.code).toBe(0);
    expect(JSON.parse(inspect.stdout).serverInfo.name).toBe('mcp-reference-server');
    expect(inspect.stdout + inspect.stderr).not.toContain(SECRET);
    const requests = await remote.requests();
    expect(requests.map((request) => request.method)).toEqual(expect.arrayContaining(['initialize', 'tools/call']));
    for (const request of requests) {
      expect(request.headers['x-team']).toBe('blue');
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    }
  });

  it('does not print the token when the server refuses it (401)', async () => {
    const remote = await scenario([{ match: {}, action: { type: 'status', status: 401, body: 'bad token' } }]);
    const { code, stdout, stderr } = await mcp(['inspect', '--url', remote.url, '--token-env', 'T'], { T: SECRET });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^mcp: .*401/);
    expect(stdout + stderr).not.toContain(SECRET);
    expect((await remote.requests())[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('refuses a --token-env variable that is empty or unset, naming it, before any request', async () => {
    const remote = await scenario();
    for (const env of [{}, { T: '' }]) {
      const { code, stderr } = await mcp(['inspect', '--url', remote.url, '--token-env', 'T'], env);
      expect(code).toBe(2);
      expect(stderr).toBe('mcp: --token-env: the variable T is empty or not set (try mcp --help)\n');
    }
    expect(await remote.requests()).toEqual([]);
  });

  it.each([
    [['inspect', '--header', 'A: b', '--', 'node', 'server.mjs'], '--header and --token-env go with --url'],
    [['inspect', '--token-env', 'T', '--', 'node', 'server.mjs'], '--header and --token-env go with --url'],
    [['inspect', '--url', 'https://example.com/mcp', '--header', 'no colon'], '--header takes "Name: value"'],
    [['inspect', '--url', 'https://example.com/mcp', '--header', 'A: b\r\nC: d'], 'the value must be one line'],
    [['inspect', '--url', 'https://example.com/mcp', '--token-env', 'NOT-A-NAME'], '--token-env takes the name'],
    [['inspect', '--url', 'https://example.com/mcp', '--token-store', '/tmp/x'], 'only mcp bridge takes these'],
  ])('treats %j as a usage error (exit 2)', async (argv, message) => {
    const { code, stderr } = await mcp(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('mcp --url at a URL that serves no MCP', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    // What an Express app answers for a path it has no route for, on every method.
    server = createServer((request, response) => {
      request.resume();
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`Cannot ${request.method} ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reports the refused POST, not the HTTP+SSE fallback's GET after it", async () => {
    const { code, stdout, stderr } = await mcp(['inspect', '--url', `${origin}/wrong`]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`mcp: HTTP 404 from ${origin}/wrong: Cannot POST /wrong\n`);
  });
});

describe('mcp inspect --url names the era and the transport', () => {
  it.each([
    ['/stateful', 'legacy', 'streamable-http'],
    ['/v2', 'modern', 'streamable-http'],
    ['/legacy-sse', 'legacy', 'http+sse'],
  ])('%s: %s era over %s', async (path, era, transport) => {
    const json = await mcp(['inspect', '--json', '--url', `${servers.modes}${path}`]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ era, transport });
    const text = await mcp(['inspect', '--url', `${servers.modes}${path}`]);
    expect(text.stdout).toMatch(new RegExp(`^ {2}era +${era} \\(`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^ {2}transport +${transport.replace('+', '\\+')}$`, 'm'));
  });
});

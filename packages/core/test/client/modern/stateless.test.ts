import { describe, expect, it } from 'vitest';
import { encodeHeaderValue } from '../../../src/client/eras/header-values.js';
import {
  CLIENT_CAPABILITIES_KEY,
  CLIENT_INFO_KEY,
  hubUrl,
  metaOf,
  PROTOCOL_VERSION_KEY,
  recordingHandlers,
  useClients,
  useHttpServers,
  useStdio,
} from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const spawn = useStdio();

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('a 2026-07-28 server is used statelessly', () => {
  it('over HTTP: no initialize, every request enveloped, MCP-Protocol-Version/Mcp-Method/Mcp-Name right, no GET, DELETE or session', async () => {
    const { options } = recordingHandlers();
    const { client, calls, transport } = await open(hubUrl(servers.modes, 'stateless'), {
      client: { ...options, clientInfo: { name: 'stateless-test', version: '1.2.3' } },
    });
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo?.name).toBe('mcp-reference-server');

    await client.listTools();
    expect((await client.callTool('echo', { text: 'hi' })).text).toBe('hi');
    const prompt = await client.getPrompt('greeting', { name: 'Ada' });
    expect(prompt.messages[0]?.content[0]?.text).toBe('Hello, Ada!');
    expect((await client.readResource('test://static/text/1')).contents[0]?.text).toBe('Resource 1');
    // A non-ASCII URI travels in Mcp-Name as the base64 sentinel; the server decodes and compares it.
    expect((await client.readResource('test://template/Zürich')).contents[0]?.text).toBe('Item Zürich');
    await client.close();

    expect(calls.length).toBeGreaterThan(0);
    expect(calls.map((call) => call.httpMethod).filter((method) => method !== 'POST')).toEqual([]);
    expect(calls.map((call) => call.rpcMethod)).not.toContain('initialize');
    expect(calls[0]?.rpcMethod).toBe('server/discover');
    expect(transport.sessionId).toBeUndefined();
    const names: Record<string, string> = {};
    for (const call of calls) {
      expect(call.status, `${call.rpcMethod} answered`).toBe(200);
      expect(call.headers.has('mcp-session-id')).toBe(false);
      const meta = metaOf(call.message);
      expect(meta[PROTOCOL_VERSION_KEY]).toBe('2026-07-28');
      expect(call.headers.get('mcp-protocol-version')).toBe(meta[PROTOCOL_VERSION_KEY]);
      expect(meta[CLIENT_CAPABILITIES_KEY]).toMatchObject({ elicitation: { form: {} }, sampling: {}, roots: {} });
      expect(meta[CLIENT_INFO_KEY]).toEqual({ name: 'stateless-test', version: '1.2.3' });
      expect(call.headers.get('mcp-method')).toBe(call.rpcMethod);
      const name = call.headers.get('mcp-name');
      if (name !== null) names[`${call.rpcMethod} ${JSON.stringify(call.message?.params)}`] = name;
    }
    expect(Object.values(names)).toEqual([
      'echo',
      'greeting',
      'test://static/text/1',
      base64('test://template/Zürich'),
    ]);
    const named = calls.filter((call) =>
      ['tools/call', 'prompts/get', 'resources/read'].includes(call.rpcMethod ?? ''),
    );
    expect(named.every((call) => call.headers.has('mcp-name'))).toBe(true);
    expect(calls.filter((call) => !named.includes(call)).some((call) => call.headers.has('mcp-name'))).toBe(false);
  });

  it('over stdio: server/discover first, every request enveloped, never initialize', async () => {
    const { client, tap } = await spawn('v2', recordingHandlers().options);
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect((await client.listTools()).map((tool) => tool.name)).toContain('request-counts');
    expect((await client.readResource('test://static/text/2')).contents[0]?.text).toBe('Resource 2');
    const counts = JSON.parse((await client.callTool('request-counts')).text) as Record<string, number>;
    expect(counts.initialize).toBeUndefined();
    expect(counts['server/discover']).toBe(1);
    expect(tap.methods()[0]).toBe('server/discover');
    expect(tap.methods()).not.toContain('initialize');
    const requests = tap.sent.filter((message) => 'method' in message && 'id' in message);
    expect(requests.length).toBe(tap.methods().length);
    for (const request of requests) {
      expect(metaOf(request)[PROTOCOL_VERSION_KEY]).toBe('2026-07-28');
      expect(metaOf(request)[CLIENT_CAPABILITIES_KEY]).toBeDefined();
      expect(metaOf(request)[CLIENT_INFO_KEY]).toBeDefined();
    }
  });

  it('declares roots as {} in the 2026-07-28 envelope, with no listChanged (26-07 has no roots/list_changed)', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'roots-capability'), {
      client: { roots: () => [{ uri: 'file:///workspace' }] },
    });
    await client.callTool('echo', { text: 'x' });
    for (const call of calls) {
      expect(metaOf(call.message)[CLIENT_CAPABILITIES_KEY]).toEqual({
        roots: {},
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      });
    }
  });

  it('encodes Mcp-Name and Mcp-Param values plain when visible ASCII, else as the base64 sentinel', () => {
    expect(encodeHeaderValue('eu-west')).toBe('eu-west');
    expect(encodeHeaderValue('two words\tand a tab')).toBe('two words\tand a tab');
    expect(encodeHeaderValue('Zürich')).toBe(base64('Zürich'));
    expect(encodeHeaderValue('日本')).toBe(base64('日本'));
    expect(encodeHeaderValue(' padded')).toBe(base64(' padded'));
    expect(encodeHeaderValue('padded ')).toBe(base64('padded '));
    expect(encodeHeaderValue('line\nbreak')).toBe(base64('line\nbreak'));
    // Plain ASCII that looks like the sentinel must be encoded too, or the server would decode it.
    expect(encodeHeaderValue('=?base64?abc?=')).toBe(base64('=?base64?abc?='));
  });
});

/**
 * `callTool(name, args, { meta })`: what the server receives as the request's
 * `params._meta`, in each era and on each path a call takes (plain, a task the
 * client starts, a task the server answers with), and which keys stay the
 * client's. The servers are the real reference and task servers over HTTP;
 * the test reads each `tools/call` body as it reaches them.
 */
import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error test-servers is plain JS without declarations
import { createModesHandler } from '../../../../test-servers/http/modes.mjs';
// @ts-expect-error test-servers is plain JS without declarations
import { toNodeListener } from '../../../../test-servers/http/node-adapter.mjs';
import type { Progress } from '../../src/index.js';
import { useClients, useNodeServer } from '../transport/http/harness.js';

interface Received {
  readonly id: number | undefined;
  readonly params: { readonly name?: string; readonly task?: unknown; readonly _meta?: Record<string, unknown> };
}

const modes = createModesHandler() as { handler: (request: Request) => Promise<Response>; close(): Promise<void> };
/** Every `tools/call` the servers received, in arrival order, with its id and params as sent. */
const received: Received[] = [];
const origin = useNodeServer(
  createServer(
    toNodeListener(async (request: Request) => {
      if (request.method === 'POST') {
        const body = (await request
          .clone()
          .json()
          .catch(() => undefined)) as { method?: unknown; id?: number; params?: Received['params'] } | undefined;
        if (body?.method === 'tools/call') received.push({ id: body.id, params: body.params ?? {} });
      }
      return modes.handler(request);
    }),
  ),
);
afterAll(() => modes.close());

const connect = useClients();
const TRACE = { 'example.com/trace': 'abc', 'example.com/nested': { depth: [1, 2] } };

/** The `tools/call` requests for `tool` the server received. */
const callsOf = (tool: string) => received.filter((call) => call.params.name === tool);

describe.each([
  // path, era, tool, arguments, what the call returns
  ['/stateful', 'legacy', 'echo', { text: 'plain' }, 'plain'],
  ['/v2', 'modern', 'echo', { text: 'plain' }, 'plain'],
  // A 2025-11-25 server that declared tasks: a required-task tool is called as a task (`task: {ttl}`).
  ['/tasks-2025', 'legacy', 'slow-steps', { steps: 1, stepMs: 10 }, 'done after 1 steps'],
  // A 2026-07-28 server that answers with a task (`resultType: "task"`), which the client follows.
  ['/tasks-2026', 'modern', 'slow-steps', { steps: 1, stepMs: 10 }, 'done after 1 steps'],
] as const)('callTool meta on %s (%s)', (path, era, tool, args, text) => {
  it('reaches the server as params._meta, beside the keys the client sets itself', async () => {
    const { client } = await connect(`${origin()}${path}?run=${crypto.randomUUID()}`);
    expect(client.era).toBe(era);
    const before = callsOf(tool).length;
    const result = await client.callTool(tool, args, { meta: TRACE });
    expect(result.text).toBe(text);
    const [call] = callsOf(tool).slice(before);
    expect(call?.params._meta).toMatchObject(TRACE);
    if (path === '/tasks-2025') expect(call?.params.task).toBeDefined();
    // 2026-07-28 requests carry the client's own keys too; no legacy request has any.
    const own = Object.keys(call?.params._meta ?? {}).filter((key) => !(key in TRACE));
    if (era === 'legacy') expect(own).toEqual([]);
    else expect(own).toContain('io.modelcontextprotocol/protocolVersion');
  });

  it('sends no _meta when the call gives none', async () => {
    const { client } = await connect(`${origin()}${path}?run=${crypto.randomUUID()}`);
    const before = callsOf(tool).length;
    await client.callTool(tool, args);
    const [call] = callsOf(tool).slice(before);
    if (era === 'legacy') expect(call?.params).not.toHaveProperty('_meta');
    else expect(Object.keys(call?.params._meta ?? {}).some((key) => key in TRACE)).toBe(false);
  });
});

describe('callTool meta: the keys that stay the client’s', () => {
  it('never sends the caller’s progressToken; the one onProgress asks for is the client’s own', async () => {
    const { client } = await connect(`${origin()}/stateful`);
    const before = callsOf('slow').length;
    const args = { steps: 2, intervalMs: 0 };
    await client.callTool('slow', args, { meta: { ...TRACE, progressToken: 'mine' } });
    const reports: Progress[] = [];
    const meta = { ...TRACE, progressToken: 'mine' };
    await client.callTool('slow', args, { meta, onProgress: (progress) => reports.push(progress) });
    const [quiet, reporting] = callsOf('slow').slice(before);
    expect(quiet?.params._meta).toEqual(TRACE);
    expect(reporting?.params._meta).toEqual({ ...TRACE, progressToken: reporting?.id });
    expect(reports.map((report) => report.progress)).toEqual([1, 2]);
    // The caller's object is left as it was.
    expect(meta.progressToken).toBe('mine');
  });

  it('a progressToken naming another call in flight does not send that call the server’s reports', async () => {
    const { client } = await connect(`${origin()}/stateful`);
    const before = callsOf('slow').length;
    const reports: Progress[] = [];
    const first = client.callTool('slow', { steps: 4, intervalMs: 60 }, { onProgress: (p) => reports.push(p) });
    while (callsOf('slow').length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const target = callsOf('slow')[before]?.id;
    expect(typeof target).toBe('number');
    // This call's own steps (total 3) would be reported under the first call's id, were the token sent.
    await client.callTool('slow', { steps: 3, intervalMs: 10 }, { meta: { progressToken: target } });
    await first;
    expect(reports.map((report) => report.total)).toEqual([4, 4, 4, 4]);
  });

  it('in 2026-07-28 the protocol version, client capabilities, client info and a set log level are the client’s', async () => {
    const { client } = await connect(`${origin()}/v2?run=${crypto.randomUUID()}`, {
      client: { clientInfo: { name: 'meta-test', version: '1.0.0' } },
    });
    const forged = {
      'io.modelcontextprotocol/protocolVersion': '1999-01-01',
      'io.modelcontextprotocol/clientCapabilities': { forged: true },
      'io.modelcontextprotocol/clientInfo': { name: 'forged', version: '0' },
      'io.modelcontextprotocol/logLevel': 'debug',
    };
    const before = callsOf('echo').length;
    const options = { meta: { ...TRACE, ...forged }, logLevel: 'error' } as const;
    expect((await client.callTool('echo', { text: 'kept' }, options)).text).toBe('kept');
    const sent = callsOf('echo').slice(before)[0]?.params._meta ?? {};
    expect(sent).toMatchObject(TRACE);
    expect(sent['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(sent['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'meta-test', version: '1.0.0' });
    expect(sent['io.modelcontextprotocol/clientCapabilities']).not.toHaveProperty('forged');
    expect(sent['io.modelcontextprotocol/logLevel']).toBe('error');
  });

  it('goes with the call sent once more after a HeaderMismatch made the client list the tools again', async () => {
    // Called before listTools: no Mcp-Param-* headers, so the server refuses with -32020.
    const { client, calls } = await connect(`${origin()}/v2?hub=meta-relist-${crypto.randomUUID()}`);
    const before = callsOf('header-echo').length;
    const result = await client.callTool('header-echo', { region: 'eu-west' }, { meta: TRACE });
    expect(result.isError).toBe(false);
    expect(calls.filter((call) => call.rpcMethod === 'tools/call').map((call) => call.status)).toEqual([400, 200]);
    const sent = callsOf('header-echo').slice(before);
    expect(sent).toHaveLength(2);
    for (const call of sent) expect(call.params._meta).toMatchObject(TRACE);
  });
});

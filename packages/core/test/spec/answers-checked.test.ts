import { describe, expect, it } from 'vitest';
import { type ElicitationHandler, McpError } from '../../src/index.js';
import { hubUrl, useClients, useHttpServers } from '../client/modern/modern-harness.js';

const servers = useHttpServers();
const open = useClients();

/** The reference server asks `elicit` for `{name: string}` (required) and `list-roots` for the roots. */
const wrongAnswer: ElicitationHandler = () => ({ action: 'accept', content: { name: 42 } });
const WEB_ROOT = [{ uri: 'https://intranet.example/project', name: 'web' }];

/**
 * Checklist §8.1 and §8.3 against the reference server in both eras: an answer of the
 * app's that breaks the rules never reaches the server, and the app hears why.
 */
describe('spec: answers the client refuses to send, on a real server', () => {
  it('2025-11-25 (HTTP /stateful): the server gets -32603 for a form answer outside its schema, the app an McpError on onError', async () => {
    const { client, errors } = await open(`${servers.modes}/stateful`, { client: { elicitation: wrongAnswer } });
    const result = await client.callTool('elicit');
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain('42');
    expect(errors).toEqual([expect.any(McpError)]);
    expect(errors[0]?.message).toContain('content.name: must be a string');
  });

  it('2026-07-28 (HTTP /v2): the call fails with the McpError for a form answer outside its schema, and nothing is retried', async () => {
    const { client, errors, calls } = await open(hubUrl(servers.modes, 'answers'), {
      client: { elicitation: wrongAnswer },
    });
    const error = await client.callTool('elicit').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as Error).message).toContain('content.name: must be a string');
    expect(errors).toEqual([error]);
    expect(calls.filter((call) => call.rpcMethod === 'tools/call')).toHaveLength(1);
  });

  it.each([
    ['2025-11-25 (HTTP /stateful)', 'stateful'],
    ['2026-07-28 (HTTP /v2)', 'v2'],
  ])('%s: a root that is not file:// never reaches the server', async (_, mode) => {
    const url = mode === 'v2' ? hubUrl(servers.modes, 'roots') : `${servers.modes}/stateful`;
    const { client, errors } = await open(url, { client: { roots: WEB_ROOT } });
    const outcome = await client.callTool('list-roots').then(
      (result) => result.text,
      (error: unknown) => error,
    );
    expect(JSON.stringify(outcome)).not.toContain('intranet');
    expect(errors).toEqual([expect.any(McpError)]);
    expect(errors[0]?.message).toContain('root 0 is not a file:// URI');
  });
});

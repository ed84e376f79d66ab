import { describe, expect, it } from 'vitest';
import type { ElicitRequestParams } from '../../src/protocol/index.js';
import { plainTool, textResult, useHostileServer } from './hostile-server.js';
import { useClients } from './modern-harness.js';

const hostile = useHostileServer();
const open = useClients();

/** An `input_required` result asking for the given inputs. */
const inputRequired = (inputRequests: Record<string, unknown>, requestState = 'round-1') => ({
  resultType: 'input_required',
  inputRequests,
  requestState,
});

const urlElicitation = (url: string) => ({
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Continue in the browser', url },
});

/** The `inputResponses` of the n-th `tools/call` the server received. */
const responsesOf = (n: number) => hostile.calls[n]?.params.inputResponses as Record<string, unknown> | undefined;

describe('URL-mode input requests from a 2026-07-28 server', () => {
  it('only https: and loopback http: URLs reach the handler; javascript:, data:, file: and remote http: are declined', async () => {
    const urls = {
      script: 'javascript:alert(document.cookie)',
      data: 'data:text/html,<script>alert(1)</script>',
      file: 'file:///etc/passwd',
      plain: 'http://example.com/login',
      secure: 'https://example.com/login',
      local: 'http://127.0.0.1:8080/consent',
    };
    hostile.script({
      tools: [plainTool('sign-in')],
      call: ({ params }) =>
        params.inputResponses
          ? textResult('done')
          : inputRequired(Object.fromEntries(Object.entries(urls).map(([key, url]) => [key, urlElicitation(url)]))),
    });
    const seen: string[] = [];
    const warnings: string[] = [];
    const { client } = await open(hostile.url, {
      client: {
        elicitation: {
          url: true,
          handler: (request: ElicitRequestParams) => {
            if (request.mode === 'url') seen.push(request.url);
            return { action: 'accept' };
          },
        },
        onWarning: (message) => warnings.push(message),
      },
    });
    expect((await client.callTool('sign-in')).text).toBe('done');
    expect(seen.sort()).toEqual([urls.local, urls.secure].sort());
    expect(responsesOf(1)).toEqual({
      script: { action: 'decline' },
      data: { action: 'decline' },
      file: { action: 'decline' },
      plain: { action: 'decline' },
      secure: { action: 'accept' },
      local: { action: 'accept' },
    });
    expect(warnings).toHaveLength(4);
  });
});

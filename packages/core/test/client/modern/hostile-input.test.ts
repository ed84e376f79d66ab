import { describe, expect, it } from 'vitest';
import { ClientClosedError, type ElicitationHandler, LimitError } from '../../../src/index.js';
import type { ElicitRequestParams } from '../../../src/protocol/index.js';
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

const formElicitation = (n: number) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: `Question ${n}`,
    requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
  },
});

/** `count` form elicitations in one round, keyed q1…qN. */
const questions = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`q${i + 1}`, formElicitation(i + 1)]));

/** A tool that asks `count` questions in its first round and completes on the retry. */
function asking(count: number): void {
  hostile.script({
    tools: [plainTool('ask'), plainTool('echo')],
    call: ({ name, params }) =>
      name === 'echo'
        ? textResult('still here')
        : params.inputResponses
          ? textResult('answered')
          : inputRequired(questions(count)),
  });
}

/** An elicitation handler that counts its runs and how many ran at once. */
function countingHandler(delay = 0): { handler: ElicitationHandler; runs: () => number; peak: () => number } {
  let runs = 0;
  let active = 0;
  let peak = 0;
  const handler: ElicitationHandler = async () => {
    runs++;
    peak = Math.max(peak, ++active);
    await new Promise((resolve) => setTimeout(resolve, delay));
    active--;
    return { action: 'accept', content: { answer: 'yes' } };
  };
  return { handler, runs: () => runs, peak: () => peak };
}

/** A handler that waits for its signal and records why it stopped. */
function waitingHandler(): { handler: ElicitationHandler; started: Promise<void>; reasons: unknown[] } {
  const reasons: unknown[] = [];
  let start!: () => void;
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const handler: ElicitationHandler = ({ message }, { signal }) => {
    void message;
    start();
    return new Promise((_, reject) => {
      signal.addEventListener('abort', () => {
        reasons.push(signal.reason);
        reject(signal.reason);
      });
    });
  };
  return { handler, started, reasons };
}

describe('input request floods (limits.maxInputRequests)', () => {
  it('5,000 inputRequests in one round fail the call with a clear error; the handler runs 0 times, no retry is sent', async () => {
    asking(5000);
    const counting = countingHandler();
    const { client } = await open(hostile.url, { client: { elicitation: counting.handler } });
    const error = await client.callTool('ask').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRequests', value: 16 });
    expect((error as Error).message).toMatch(/5000 inputs in one round, more than 16 \(limits\.maxInputRequests: 16\)/);
    expect(counting.runs()).toBe(0);
    expect(hostile.calls.map((call) => call.name)).toEqual(['ask']);
    expect((await client.callTool('echo')).text).toBe('still here');
  });

  it('16 inputRequests (the default limit) are all answered and the call completes', async () => {
    asking(16);
    const counting = countingHandler();
    const { client } = await open(hostile.url, { client: { elicitation: counting.handler } });
    expect((await client.callTool('ask')).text).toBe('answered');
    expect(counting.runs()).toBe(16);
    expect(Object.keys(responsesOf(1) ?? {})).toHaveLength(16);
  });

  it('a lower limits.maxInputRequests is honoured: 3 inputs with a limit of 2 fail, 2 pass', async () => {
    asking(3);
    const counting = countingHandler();
    const { client } = await open(hostile.url, {
      client: { elicitation: counting.handler, limits: { maxInputRequests: 2 } },
    });
    await expect(client.callTool('ask')).rejects.toThrow(/more than 2 \(limits\.maxInputRequests: 2\)/);
    asking(2);
    expect((await client.callTool('ask')).text).toBe('answered');
    expect(counting.runs()).toBe(2);
  });

  it('the handlers of one round run at most limits.maxConcurrentHandlers at once, and the 13 waiting for a slot make Node print no MaxListenersExceededWarning', async () => {
    asking(16);
    const counting = countingHandler(20);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { client } = await open(hostile.url, {
        client: { elicitation: counting.handler, limits: { maxConcurrentHandlers: 3 } },
      });
      expect((await client.callTool('ask')).text).toBe('answered');
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('warning', onWarning);
    }
    expect(counting.runs()).toBe(16);
    expect(counting.peak()).toBe(3);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});

describe("an input request handler's signal follows its call", () => {
  it('aborts when the call times out; the call fails with TimeoutError in well under the old forever', async () => {
    asking(1);
    const waiting = waitingHandler();
    const { client } = await open(hostile.url, { client: { elicitation: waiting.handler } });
    const started = performance.now();
    const error = await client.callTool('ask', {}, { timeout: 200 }).catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(waiting.reasons).toEqual([error]);
    expect((await client.callTool('echo')).text).toBe('still here');
  });

  it('aborts when the caller aborts the call', async () => {
    asking(1);
    const waiting = waitingHandler();
    const { client } = await open(hostile.url, { client: { elicitation: waiting.handler } });
    const controller = new AbortController();
    const call = client.callTool('ask', {}, { signal: controller.signal }).catch((caught: unknown) => caught);
    await waiting.started;
    const reason = new DOMException('the user gave up', 'AbortError');
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(waiting.reasons).toEqual([reason]);
    expect(hostile.calls).toHaveLength(1);
  });

  it('aborts when the client closes; the call fails with ClientClosedError', async () => {
    asking(1);
    const waiting = waitingHandler();
    const { client } = await open(hostile.url, { client: { elicitation: waiting.handler } });
    const call = client.callTool('ask').catch((caught: unknown) => caught);
    await waiting.started;
    await client.close();
    expect(await call).toBeInstanceOf(ClientClosedError);
    expect(waiting.reasons).toHaveLength(1);
    expect(waiting.reasons[0]).toBeInstanceOf(ClientClosedError);
  });

  it.each([0, Number.POSITIVE_INFINITY])(
    'a call with timeout %s (none) lets its handlers take their time',
    async (timeout) => {
      asking(2);
      const counting = countingHandler(50);
      const { client } = await open(hostile.url, { client: { elicitation: counting.handler } });
      expect((await client.callTool('ask', {}, { timeout })).text).toBe('answered');
      expect(counting.runs()).toBe(2);
    },
  );

  it('a handler that ignores its signal cannot hold the call past its timeout', async () => {
    asking(1);
    const { client } = await open(hostile.url, {
      client: { elicitation: () => new Promise(() => {}), limits: { closeGrace: 50 } },
    });
    const error = await client.callTool('ask', {}, { timeout: 150 }).catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('TimeoutError');
  });
});

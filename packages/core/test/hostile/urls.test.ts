import { describe, expect, it } from 'vitest';
import { INPUT_FLOOD_REQUESTS } from '../../../../test-servers/hostile/serve.mjs';
import { type ElicitationHandler, LimitError } from '../../src/index.js';
import { expectHealthy, rejection, timed } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Server-chosen URLs and input requests: a URL-mode elicitation reaches the
// app only for https: (and http: on loopback); anything else is declined on
// its behalf. A round of thousands of input requests runs no handler at all.

const server = useHostileServer();
const open = useHostileClients(server);

const REFUSED_URLS = [
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'http://attacker.example/login',
  'vbscript:msgbox(1)',
];

/** A client whose URL-mode elicitation handler records what it was shown and accepts. */
async function openElicitation(era: 'legacy' | 'modern') {
  const shown: string[] = [];
  const handler: ElicitationHandler = (request) => {
    if (request.mode === 'url') shown.push(request.url);
    return { action: 'accept' };
  };
  const hostile = await open('elicit-url', { era, client: { elicitation: { handler, url: true } } });
  /** Calls the tool with `url`; what the server got back for its elicitation. */
  const answer = async (url: string) => {
    const result = await hostile.client.callTool('hostile', { url });
    const parsed = JSON.parse(result.text) as Record<string, unknown>;
    // 2026-07-28 answers by input request key; legacy answers the request itself.
    return (era === 'modern' ? parsed.link : parsed) as { action?: string };
  };
  return { ...hostile, shown, answer };
}

describe.each(['legacy', 'modern'] as const)('urls (%s era)', (era) => {
  it.each(REFUSED_URLS)('a URL-mode elicitation of %s is declined without reaching the handler', async (url) => {
    const { shown, answer, warnings, client } = await openElicitation(era);
    expect(await answer(url)).toEqual({ action: 'decline' });
    expect(shown).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
    await expectHealthy(client);
  });

  it.each(['https://auth.example/consent', 'http://127.0.0.1:8123/consent'])(
    'a URL-mode elicitation of %s reaches the handler, whose answer goes back',
    async (url) => {
      const { shown, answer } = await openElicitation(era);
      expect(await answer(url)).toEqual({ action: 'accept' });
      expect(shown).toEqual([url]);
    },
  );
});

/** A 2026-07-28 client on `input-flood` whose form elicitation handler counts its calls and declines. */
async function openInputFlood() {
  const counted = { asked: 0 };
  const hostile = await open('input-flood', {
    era: 'modern',
    client: {
      elicitation: () => {
        counted.asked++;
        return { action: 'decline' };
      },
    },
  });
  return { ...hostile, counted };
}

describe('input requests (2026-07-28)', () => {
  it(`${INPUT_FLOOD_REQUESTS.toLocaleString('en')} input requests in one round fail the call with LimitError (limits.maxInputRequests) before any handler runs`, async () => {
    const { client, counted } = await openInputFlood();
    const { value: error, ms } = await timed(() => rejection(client.callTool('hostile')));
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRequests', value: 16 });
    expect(ms).toBeLessThan(2000);
    expect(counted.asked).toBe(0);
    await expectHealthy(client);
  });

  it('16 input requests (the default limit) are all answered', async () => {
    const { client, counted } = await openInputFlood();
    const result = await client.callTool('hostile', { count: 16 });
    expect(Object.keys(JSON.parse(result.text) as object)).toHaveLength(16);
    expect(counted.asked).toBe(16);
  });
});

import { describe, expect, it } from 'vitest';
import { CapabilityError, type Client, McpError } from '../../src/index.js';
import { ALL_CAPABILITIES, connected, scripted, useScriptedClients } from './harness.js';

useScriptedClients();

const everythingBut = (key: keyof typeof ALL_CAPABILITIES): Record<string, unknown> => {
  const { [key]: _dropped, ...rest } = ALL_CAPABILITIES;
  return rest;
};

/** Every gated method, the capability it needs, and server capabilities that lack exactly that. */
const GATED: ReadonlyArray<{
  name: string;
  capability: string;
  declared: Record<string, unknown>;
  call: (client: Client) => Promise<unknown>;
}> = [
  { name: 'listTools', capability: 'tools', declared: everythingBut('tools'), call: (c) => c.listTools() },
  { name: 'callTool', capability: 'tools', declared: everythingBut('tools'), call: (c) => c.callTool('t') },
  {
    name: 'listResources',
    capability: 'resources',
    declared: everythingBut('resources'),
    call: (c) => c.listResources(),
  },
  {
    name: 'listResourceTemplates',
    capability: 'resources',
    declared: everythingBut('resources'),
    call: (c) => c.listResourceTemplates(),
  },
  {
    name: 'readResource',
    capability: 'resources',
    declared: everythingBut('resources'),
    call: (c) => c.readResource('file:///x'),
  },
  { name: 'listPrompts', capability: 'prompts', declared: everythingBut('prompts'), call: (c) => c.listPrompts() },
  { name: 'getPrompt', capability: 'prompts', declared: everythingBut('prompts'), call: (c) => c.getPrompt('p') },
  {
    name: 'complete',
    capability: 'completions',
    declared: everythingBut('completions'),
    call: (c) => c.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
  },
  {
    name: 'setLoggingLevel',
    capability: 'logging',
    declared: everythingBut('logging'),
    call: (c) => c.setLoggingLevel('info'),
  },
  {
    name: 'subscribeResource',
    capability: 'resources.subscribe',
    declared: { ...ALL_CAPABILITIES, resources: { listChanged: true } },
    call: (c) => c.subscribeResource('file:///x'),
  },
  {
    name: 'unsubscribeResource',
    capability: 'resources.subscribe',
    declared: { ...ALL_CAPABILITIES, resources: {} },
    call: (c) => c.unsubscribeResource('file:///x'),
  },
];

describe('capability gating', () => {
  it.each(GATED)(
    '$name rejects with CapabilityError ($capability) and sends nothing',
    async ({ capability, declared, call }) => {
      const { client, server } = await connected({}, { capabilities: declared });
      const error = await call(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityError);
      expect((error as CapabilityError).capability).toBe(capability);
      await server.assertNoMessage(30);
    },
  );

  it('sends a gated method once the server declared its capability', async () => {
    const { client, server } = await connected({}, { capabilities: { resources: { subscribe: true } } });
    const subscribing = client.subscribeResource('file:///x');
    const request = await server.expect('resources/subscribe');
    expect(request.params).toEqual({ uri: 'file:///x' });
    await server.reply(request.id, {});
    await subscribing;
  });

  it('sends ping and request() to a server that declared no capability at all', async () => {
    const { client, server } = await connected({}, { capabilities: {} });
    const pinging = client.ping();
    await server.reply((await server.expect('ping')).id, {});
    await pinging;
    const asking = client.request('x/custom', { a: 1 });
    const request = await server.expect('x/custom');
    expect(request.params).toEqual({ a: 1 });
    await server.reply(request.id, { ok: true });
    expect(await asking).toEqual({ ok: true });
  });

  it('refuses gated and ungated calls before connect(), sending nothing', async () => {
    const { client, server } = scripted();
    for (const call of [...GATED.map((gated) => gated.call), (c: Client) => c.ping(), (c: Client) => c.request('x')]) {
      const error = await call(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as Error).message).toMatch(/call connect\(\) first/);
    }
    await server.assertNoMessage(30);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { sharedEraCache } from '../../../src/client/eras/era-detection.js';
import { DEFAULT_ERA_CACHE_ENTRIES } from '../../../src/client/options.js';
import type { EraKind } from '../../../src/index.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';
import { startUpgradableServer, type UpgradableServer } from './upgradable-server.js';

const servers = useHttpServers();
const open = useClients();

let upgradable: UpgradableServer | undefined;
afterEach(async () => {
  await upgradable?.close();
  upgradable = undefined;
});

describe('the era verdict is cached per server', () => {
  it('a second client on the same legacy URL skips the server/discover probe and goes straight to initialize', async () => {
    // A cache of the test's own: no other test's verdict on this URL can leak in.
    const client = { eraCache: new Map<string, EraKind>() };
    const url = `${servers.modes}/stateful`;
    const first = await open(url, { client });
    expect(first.client.era).toBe('legacy');
    expect(first.calls.map((call) => call.rpcMethod).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect([...client.eraCache.values()]).toEqual(['legacy']);
    const second = await open(url, { client });
    expect(second.client.era).toBe('legacy');
    expect(second.calls[0]?.rpcMethod).toBe('initialize');
    expect(second.calls.map((call) => call.rpcMethod)).not.toContain('server/discover');
  });

  it('a second client on the same modern URL sends server/discover once and never initialize', async () => {
    const url = hubUrl(servers.modes, 'era-cache');
    await open(url);
    const second = await open(url);
    expect(second.client.era).toBe('modern');
    const methods = second.calls.map((call) => call.rpcMethod);
    expect(methods).toEqual(['server/discover']);
  });

  it('a cached legacy verdict that fails (the server now speaks 2026-07-28 only) re-probes once and goes modern', async () => {
    upgradable = await startUpgradableServer(`${servers.modes}/stateful`);
    const before = await open(upgradable.url);
    expect(before.client.era).toBe('legacy');
    await before.client.close();

    upgradable.upgrade();
    const after = await open(upgradable.url);
    expect(after.client.era).toBe('modern');
    expect((await after.client.callTool('echo', { text: 'upgraded' })).text).toBe('upgraded');
    const methods = after.calls.map((call) => `${call.httpMethod} ${call.rpcMethod ?? ''}`.trim());
    expect(methods.filter((method) => method === 'POST server/discover')).toHaveLength(1);
    expect(methods.indexOf('POST initialize')).toBeLessThan(methods.indexOf('POST server/discover'));
  });

  it('the re-probe after a failed cached legacy verdict works on a transport without the HTTP+SSE fallback', async () => {
    upgradable = await startUpgradableServer(`${servers.modes}/stateful`);
    const transport = { legacyFallback: false };
    expect((await open(upgradable.url, { transport })).client.era).toBe('legacy');
    upgradable.upgrade();
    const after = await open(upgradable.url, { transport });
    expect(after.client.era).toBe('modern');
    expect(after.calls.map((call) => call.rpcMethod)).toEqual(['initialize', 'server/discover']);
    expect((await after.client.callTool('echo', { text: 'upgraded' })).text).toBe('upgraded');
  });
});

describe('where verdicts are kept (eraCache)', () => {
  it('clients given their own eraCache neither read nor write the shared one', async () => {
    const url = `${servers.modes}/stateful?era-cache=own`;
    const shared = await open(url);
    expect(shared.calls[0]?.rpcMethod).toBe('server/discover');
    const eraCache = new Map<string, EraKind>();
    const own = await open(url, { client: { eraCache } });
    // The shared cache knows this server; a client with its own cache probes anyway.
    expect(own.calls.map((call) => call.rpcMethod).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(eraCache.size).toBe(1);
    const again = await open(url, { client: { eraCache } });
    expect(again.calls[0]?.rpcMethod).toBe('initialize');
  });

  it(`the shared cache keeps the ${DEFAULT_ERA_CACHE_ENTRIES} servers used most recently, forgetting the oldest`, async () => {
    const url = `${servers.modes}/stateful?era-cache=shared-bound`;
    await open(url);
    expect((await open(url)).calls[0]?.rpcMethod).toBe('initialize');
    // As many other servers as the cache holds, each remembered after this one.
    for (let n = 0; n < DEFAULT_ERA_CACHE_ENTRIES; n++) sharedEraCache.set(`https://other-${n}.example/mcp`, 'modern');
    expect((await open(url)).calls[0]?.rpcMethod).toBe('server/discover');
  });
});

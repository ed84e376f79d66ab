import { it } from 'vitest';
import { openStandaloneGet, until, useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();
it('dbg', async () => {
  const scenario = await servers.scenario({
    inner: 'resumable',
    rules: [{ match: { httpMethod: 'GET', nth: 1 }, action: { type: 'drop-sse-after', events: 1, how: 'reset' } }],
  });
  const { client, calls, notifications, errors } = await open(scenario.mcp);
  await until(() => openStandaloneGet(calls));
  await client.callTool('add-tool');
  await new Promise((r) => setTimeout(r, 2500));
  for (const c of calls)
    console.log(c.httpMethod, c.rpcMethod, c.headers.get('last-event-id'), c.status, String(c.error), c.startedAt | 0);
  console.log(notifications, errors);
});

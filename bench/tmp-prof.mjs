import { Client } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';
import { floorStdio } from './clients/floor-stdio.mjs';
const target = { command: process.execPath, args: [new URL('./servers/stdio.mjs', import.meta.url).pathname] };
const N = Number(process.env.N ?? 3000), CONC = Number(process.env.CONC ?? 1);
async function run(label, session) {
  await session.connect();
  const go = async (n) => { for (let i = 0; i < n; i++) await session.call('echo', { text: 'hello' }); };
  await go(300);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await Promise.all(Array.from({ length: CONC }, () => go(N / CONC)));
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(label, 'user', (c.user / N).toFixed(1), 'sys', (c.system / N).toFixed(1), 'cpu µs/call', ((c.user + c.system) / N).toFixed(1), 'wall µs/call', (t * 1000 / N).toFixed(1));
  await session.close();
}
if (process.env.WHO !== 'mcp') {
  const f = floorStdio(target);
  await run('floor', { connect: () => f.connect(), call: (n, a) => f.call(n, a), close: () => f.close() });
}
if (process.env.WHO !== 'floor') {
  const client = new Client(new StdioTransport(target), { clientInfo: { name: 'b', version: '1' }, ...(process.env.NOTIMER ? { requestTimeout: 0 } : {}) });
  await run('@mcp', { connect: () => client.connect(), call: (n, a) => client.callTool(n, a), close: () => client.close() });
}

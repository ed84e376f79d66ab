import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Client, StreamableHttpTransport } from '@mcp/core';
const server = spawn(process.execPath, [new URL('./servers/http.mjs', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
const url = await new Promise((r) => server.stdout.once('data', (d) => r(String(d).trim())));
const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
for (const path of (process.env.P ?? '/modern').split(',')) {
  const types = [];
  const f = async (u, i) => { const r = await fetch(u, i); types.push(`${r.headers.get('content-type')} len=${r.headers.get('content-length')}`); return r; };
  const c = new Client(new StreamableHttpTransport(new URL(path, url.startsWith('http') ? url : JSON.parse(url).url ?? url), { fetch: f }), { clientInfo: { name: 'b', version: '1' } });
  await c.connect(); await c.callTool('echo', { text: 'x' });
  global.gc?.(); global.gc?.();
  const before = process.memoryUsage().rss / 2 ** 20; writeFileSync('/proc/self/clear_refs', '5');
  const r = await c.callTool('big', {});
  console.log(path, 'peak +MB', (hwm() - before).toFixed(1), r.text.length, types.at(-1));
  await c.close();
}
server.kill();

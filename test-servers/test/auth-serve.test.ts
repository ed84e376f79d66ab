import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { Info, Stats } from './auth-peer.js';
import { mcpInitialize } from './auth-peer.js';

const serveEntry = fileURLToPath(new URL('../auth/serve.mjs', import.meta.url));

it('serve.mjs prints its control URL, which creates, changes, reports and deletes scenarios over HTTP', async () => {
  const child = spawn(process.execPath, [serveEntry], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { control } = JSON.parse(line) as { control: string };
  expect(Object.keys(JSON.parse(line))).toEqual(['control']);
  expect((await fetch(`${control}/health`)).status).toBe(200);

  expect((await fetch(`${control}/scenarios`, { method: 'POST', body: '{"prmAt":"nowhere"}' })).status).toBe(400);
  const created = await fetch(`${control}/scenarios`, { method: 'POST', body: '{"issuerPath":"/t"}' });
  expect(created.status).toBe(201);
  const info = (await created.json()) as Info & { stats: string };
  expect(info.issuer).toBe(`${info.as}/t`);
  expect(info.stats).toBe(`${control}/scenarios/${info.id}/stats`);

  const changed = await fetch(`${control}/scenarios/${info.id}/config`, {
    method: 'POST',
    body: '{"legacy":"metadata"}',
  });
  expect(((await changed.json()) as Info).prm).toBeNull();
  const bare = await mcpInitialize(info.mcp);
  expect([bare.status, bare.headers.has('www-authenticate')]).toEqual([401, false]);
  const stats = (await (await fetch(info.stats)).json()) as Stats;
  expect(stats.requests).toMatchObject([{ server: 'mcp', rpcMethod: 'initialize', status: 401 }]);
  expect((await fetch(`${control}/scenarios/${info.id}/expire-tokens`, { method: 'POST' })).status).toBe(204);

  const stored = await fetch(`${control}/documents/client.json`, { method: 'POST', body: '{"client_name":"x"}' });
  expect(await stored.json()).toEqual({ url: `${control}/documents/client.json` });
  expect(await (await fetch(`${control}/documents/client.json`)).json()).toEqual({ client_name: 'x' });

  expect((await fetch(`${control}/scenarios/${info.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await fetch(info.stats)).status).toBe(404);
  await expect(fetch(info.mcp)).rejects.toThrow();

  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  const [code] = await exited;
  clearTimeout(timer);
  expect(code).toBe(0);
});

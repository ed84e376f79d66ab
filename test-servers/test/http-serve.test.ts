import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { initializeRequest, post } from './http-peer.js';

const serveEntry = fileURLToPath(new URL('../http/serve.mjs', import.meta.url));

it('serve.mjs prints its URLs as one JSON line, serves on them, and exits when stdin closes', async () => {
  const child = spawn(process.execPath, [serveEntry], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const urls = JSON.parse(line) as Record<string, string>;
  expect(Object.keys(urls)).toEqual(['modes', 'faults', 'other', 'refused']);
  for (const url of Object.values(urls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  for (const url of [urls.modes, urls.faults, urls.other]) expect((await fetch(`${url}/health`)).status).toBe(200);

  const initialized = await post(`${urls.modes}/stateless`, initializeRequest());
  expect(initialized.status).toBe(200);
  await initialized.body?.cancel();
  const created = await fetch(`${urls.other}/faults`, { method: 'POST', body: '{}' });
  expect(created.status).toBe(201);
  await created.body?.cancel();

  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  const [code] = await exited;
  clearTimeout(timer);
  expect(code).toBe(0);
});

import { describe, expect, it } from 'vitest';
import { scripted, useScriptedClients } from '../harness.js';

useScriptedClients();

describe('client.tasks, before the tasks module loads', () => {
  it('is a plain object of its five methods: awaiting it, or reading a name it lacks, loads nothing and hangs nothing', async () => {
    const { client } = scripted();
    expect(Object.keys(client.tasks).sort()).toEqual(['cancel', 'get', 'list', 'result', 'start']);
    // A thenable would make `await client.tasks` call into the module for `then`, and never settle.
    expect('then' in client.tasks).toBe(false);
    expect(await client.tasks).toBe(client.tasks);
  });

  it('rejects a method called before connect() with the reason, as every other call does', async () => {
    const { client } = scripted();
    await expect(client.tasks.get('task-1')).rejects.toThrow(/connect\(\) first/);
  });
});

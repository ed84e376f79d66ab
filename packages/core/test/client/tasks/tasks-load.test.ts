import { describe, expect, it } from 'vitest';
import { StreamableHttpTransport } from '../../../src/index.js';
import { causes, failLoadsOf } from '../../transport/http/fail-loads.js';
import { methodsOf, recording, useTaskServers } from './task-peers.js';

// A file of its own: once the tasks module has loaded, every later import gets it from the cache, so its loads
// can only be failed before anything loads it.

const { servers, connect } = useTaskServers('2025-11-25');

describe('the tasks module, loaded on demand', () => {
  it('a call to a server that declared tasks rejects with the load failure before anything is sent while the module cannot load, and the next call loads it', async () => {
    const { transport, sent } = recording(new StreamableHttpTransport(`${servers.modes}/tasks-2025`));
    const client = await connect(transport);
    const load = failLoadsOf('client/tasks/index.js');
    const refused = await client.callTool('slow-steps', { steps: 1, stepMs: 10 }).catch((caught: unknown) => caught);
    const listed = await client.tasks.list().catch((caught: unknown) => caught);
    load.restore();
    expect(causes(refused)).toContain(load.failure);
    expect(causes(listed)).toContain(load.failure);
    // The tool never ran: the module decides how the call is sent.
    expect(methodsOf(sent)).not.toContain('tools/call');

    expect((await client.callTool('slow-steps', { steps: 1, stepMs: 10 })).text).toBe('done after 1 steps');
    expect(methodsOf(sent)).toContain('tools/call');
  });
});

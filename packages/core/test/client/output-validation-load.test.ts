import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { describe, expect, it, vi } from 'vitest';
import { Client, OutputValidationError } from '../../src/index.js';
import { useClientGuards } from '../transport/http/harness.js';

// A file of its own: once the validator has loaded, every later import gets it from the cache, so its loads
// can only be failed before anything loads it.

const open = useClientGuards();
const stdioScript = fileURLToPath(new URL('../../../../test-servers/stdio.mjs', import.meta.url));

describe('output validation, loaded on demand', () => {
  it('a call whose validator cannot load rejects with an OutputValidationError carrying the unchecked result, the load failure its cause, and the next call loads it', async () => {
    const client = new Client(
      new StdioTransport({ command: process.execPath, args: [stdioScript, '--profile', 'structured'] }),
      { eraCache: new Map() },
    );
    open.push(client);
    await client.connect();
    await client.listTools();
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const path = '../../src/client/output-validation/index.js';
    vi.doMock(path, () => {
      throw failure;
    });
    const refused = await client.callTool('sum-report', { structured: { sum: 'three' } }).catch((error) => error);
    vi.doUnmock(path);
    // The tool ran: its result is not lost, and the app decides what to do with it.
    expect(refused).toBeInstanceOf(OutputValidationError);
    expect(refused).toMatchObject({ tool: 'sum-report', path: '', message: expect.stringContaining('did not load') });
    expect(refused.result?.structuredContent).toEqual({ sum: 'three' });
    // Vitest wraps a failed mocked import: the failure is in the cause chain.
    expect([refused.cause, refused.cause?.cause]).toContain(failure);
    const again = await client.callTool('sum-report', { structured: { sum: 'three' } }).catch((error) => error);
    expect(again).toBeInstanceOf(OutputValidationError);
    expect((await client.callTool('sum-report', { structured: { sum: 3 } })).structuredContent).toEqual({ sum: 3 });
  });
});

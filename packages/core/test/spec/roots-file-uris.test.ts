import { describe, expect, it } from 'vitest';
import { McpError } from '../../src/index.js';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §8.1 (roots, all revisions): every root `uri` is a `file://` URI. */
describe('spec: roots are file:// URIs', () => {
  it('refuses roots with one that is not file:// (-32603 to the server, McpError to onError), sending none of them nor the URI', async () => {
    const roots = [
      { uri: 'file:///work/a', name: 'a' },
      { uri: 'https://intranet.example/secret-project', name: 'b' },
    ];
    const { server, errors } = await connected({ roots });
    const response = await server.request('roots/list');
    expect(response.result).toBeUndefined();
    expect(response.error?.code).toBe(-32603);
    expect(response.error?.message).toContain('file://');
    expect(JSON.stringify(response)).not.toContain('intranet');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpError);
    expect(errors[0]?.message).toContain('root 1 is not a file:// URI');
  });

  it('lists roots that are all file:// URIs as given', async () => {
    const roots = [{ uri: 'file:///work/a', name: 'a' }];
    const { server, errors } = await connected({ roots: () => roots });
    const response = await server.request('roots/list');
    expect(response.result).toEqual({ roots });
    expect(errors).toEqual([]);
  });
});

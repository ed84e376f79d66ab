import { describe, expect, it } from 'vitest';
import { mcpTools, ToolError } from '../../src/index.js';
import { connected, type Scripted, useScriptedClients } from './harness.js';

useScriptedClients();

const SEARCH = {
  name: 'search',
  description: 'Searches the docs.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 }, filters: { $ref: '#/$defs/filters' } },
    required: ['query'],
    additionalProperties: false,
    $defs: { filters: { type: 'object', properties: { year: { type: 'integer' } } } },
  },
};
const BARE = { name: 'now', inputSchema: { type: 'object' } };

/** `mcpTools(client)` against a server listing SEARCH and BARE. */
async function adapted(pair: Scripted) {
  const listing = mcpTools(pair.client);
  const request = await pair.server.expect('tools/list');
  await pair.server.reply(request.id, { tools: [SEARCH, BARE] });
  return listing;
}

describe('mcpTools', () => {
  it('keeps names, descriptions and inputSchema verbatim', async () => {
    const tools = await adapted(await connected());
    expect(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).toEqual([
      { name: 'search', description: 'Searches the docs.', inputSchema: SEARCH.inputSchema },
      { name: 'now', description: undefined, inputSchema: BARE.inputSchema },
    ]);
  });

  it('execute calls the tool and returns its result', async () => {
    const pair = await connected();
    const [search] = await adapted(pair);
    const running = search?.execute({ query: 'mcp' });
    const request = await pair.server.expect('tools/call');
    expect(request.params).toEqual({ name: 'search', arguments: { query: 'mcp' } });
    await pair.server.reply(request.id, { content: [{ type: 'text', text: '3 hits' }] });
    const result = await running;
    expect(result?.text).toBe('3 hits');
    expect(result?.isError).toBe(false);
  });

  it('execute throws a ToolError carrying the result when the tool reports isError', async () => {
    const pair = await connected();
    const [search] = await adapted(pair);
    const running = search?.execute({ query: '' }).catch((e: unknown) => e);
    const request = await pair.server.expect('tools/call');
    const content = [{ type: 'text', text: 'query must not be empty' }];
    await pair.server.reply(request.id, { content, isError: true });
    const error = await running;
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).tool).toBe('search');
    expect((error as ToolError).result).toMatchObject({ isError: true, content, text: 'query must not be empty' });
  });
});

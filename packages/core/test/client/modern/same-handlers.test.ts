import { describe, expect, it } from 'vitest';
// @ts-expect-error test-servers is plain JS without declarations
import { REFERENCE_TOOL_NAMES } from '../../../../../test-servers/reference/fixtures.mjs';
import type { Client, StreamableHttpTransport } from '../../../src/index.js';
import { hubUrl, ROOTS, recordingHandlers, useClients, useHttpServers, useStdio } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const spawn = useStdio();

/** The eleven tools every era lists first, in order. */
const SHARED_TOOLS = REFERENCE_TOOL_NAMES;

type Opened = { client: Client; transport?: StreamableHttpTransport };
type Target = {
  name: string;
  era: 'legacy' | 'modern';
  open: (options: ReturnType<typeof recordingHandlers>['options']) => Promise<Opened>;
};

const targets: Target[] = [
  {
    name: 'HTTP /stateful (legacy Streamable HTTP)',
    era: 'legacy',
    open: (client) => open(`${servers.modes}/stateful`, { client }),
  },
  { name: 'stdio --sdk v1 (legacy)', era: 'legacy', open: (client) => spawn('v1', client) },
  {
    name: 'HTTP /legacy-sse (HTTP+SSE fallback)',
    era: 'legacy',
    open: (client) => open(`${servers.modes}/legacy-sse`, { client }),
  },
  {
    name: 'HTTP /v2 (2026-07-28, MRTR)',
    era: 'modern',
    open: (client) => open(hubUrl(servers.modes, 'same'), { client }),
  },
  { name: 'stdio --sdk v2 (2026-07-28, MRTR)', era: 'modern', open: (client) => spawn('v2', client) },
];

describe('the same calls and handlers in both eras', () => {
  it.each(targets)(
    '$name: detected era, same calls, handlers answer sampling, elicitation and roots',
    async (target) => {
      const { asked, options } = recordingHandlers();
      const { client, transport } = await target.open(options);
      expect(client.era).toBe(target.era);
      if (target.era === 'modern') expect(client.protocolVersion).toBe('2026-07-28');
      else expect(client.protocolVersion).toBe('2025-11-25');
      if (target.name.includes('legacy-sse')) expect(transport?.usesLegacySse).toBe(true);

      expect((await client.listTools()).map((tool) => tool.name).slice(0, 11)).toEqual(SHARED_TOOLS);
      expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
      expect((await client.getPrompt('greeting', { name: 'Ada' })).messages[0]?.content[0]?.text).toBe('Hello, Ada!');
      expect((await client.readResource('test://static/text/3')).contents[0]?.text).toBe('Resource 3');

      const sampled = await client.callTool('sample', { prompt: 'Say hi' });
      expect(sampled).toMatchObject({ isError: false, text: 'sampled: Say hi' });
      const elicited = await client.callTool('elicit', { message: 'Who are you?' });
      expect(JSON.parse(elicited.text)).toEqual({ action: 'accept', content: { name: 'Ada 1' } });
      const roots = await client.callTool('list-roots');
      expect(JSON.parse(roots.text)).toEqual(ROOTS);

      expect(asked.sampling).toHaveLength(1);
      expect(asked.sampling[0]).toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 100,
      });
      expect(asked.elicitation).toHaveLength(1);
      expect(asked.elicitation[0]).toMatchObject({ message: 'Who are you?', requestedSchema: { required: ['name'] } });
      expect(asked.roots).toBe(1);
    },
  );
});

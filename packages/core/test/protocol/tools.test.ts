import { describe, expect, it } from 'vitest';
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  ListToolsResultSchema,
  requestSchema,
  resultResponseSchema,
  ToolSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const ListToolsResponse = resultResponseSchema(ListToolsResultSchema);
const CallToolResponse = resultResponseSchema(CallToolResultSchema);

describe('tools/list', () => {
  it('parses a 2024-11-05 page with a cursor', () => {
    const { result } = parses(ListToolsResponse, fixture('list-tools-2024-11-05'));
    expect(result.nextCursor).toBe('page-2');
    expect(result.tools[0]?.inputSchema.required).toEqual(['city']);
  });

  it('parses 2025-06-18 title, annotations, outputSchema and _meta', () => {
    const [tool] = parses(ListToolsResponse, fixture('list-tools-2025-06-18')).result.tools;
    expect(tool?.annotations).toEqual({ title: 'Weather forecast', readOnlyHint: true, openWorldHint: true });
    expect(tool?.outputSchema).toEqual({
      type: 'object',
      properties: { temperature: { type: 'number' } },
      required: ['temperature'],
    });
  });

  it('parses 2025-11-25 icons and execution, keeping the JSON Schema verbatim', () => {
    const input = fixture('list-tools-2025-11-25') as { result: { tools: { inputSchema: unknown }[] } };
    const [tool] = parses(ListToolsResponse, input).result.tools;
    expect(tool?.execution).toEqual({ taskSupport: 'optional' });
    expect(tool?.inputSchema).toEqual(input.result.tools[0]?.inputSchema);
  });

  it('parses 2026-07-28 cache hints, an empty cursor and a non-object output schema root', () => {
    const { result } = parses(ListToolsResponse, fixture('list-tools-2026-07-28'));
    expect([result.ttlMs, result.cacheScope, result.nextCursor]).toEqual([30000, 'private', '']);
    expect(result.tools[0]?.outputSchema).toEqual({ type: 'array', items: { type: 'string' } });
    expect(result.tools[0]?.inputSchema.properties).toEqual({ tenant: { type: 'string', 'x-mcp-header': 'Tenant' } });
  });

  it('rejects an input schema whose root is not an object schema', () => {
    const notObject = broken('list-tools-2024-11-05', (m) => {
      m.result.tools[0].inputSchema.type = 'string';
    });
    expect(rejectedAt(ListToolsResponse, notObject)).toEqual(['result.tools.0.inputSchema.type']);
    const missing = broken('list-tools-2024-11-05', (m) => {
      delete m.result.tools[0].inputSchema;
    });
    expect(rejectedAt(ListToolsResponse, missing)).toEqual(['result.tools.0.inputSchema']);
  });

  it('rejects broken tool fields at their path', () => {
    expect(
      rejectedAt(ToolSchema, { name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 1 } }),
    ).toEqual(['annotations.readOnlyHint']);
    expect(rejectedAt(ToolSchema, { name: 't', inputSchema: { type: 'object' }, outputSchema: [] })).toEqual([
      'outputSchema',
    ]);
    expect(rejectedAt(ListToolsResultSchema, { tools: {} })).toEqual(['tools']);
  });
});

describe('tools/call', () => {
  it('parses a 2024-11-05 text result', () => {
    const { result } = parses(CallToolResponse, fixture('call-tool-result-2024-11-05'));
    expect(result).toEqual({ content: [{ type: 'text', text: 'Sunny, 21 °C' }], isError: false });
  });

  it('parses a 2025-06-18 result with structured content', () => {
    const { result } = parses(CallToolResponse, fixture('call-tool-result-2025-06-18-structured'));
    expect(result.structuredContent).toEqual({ temperature: 21.5 });
  });

  it('accepts any JSON value as structured content (2026-07-28)', () => {
    const { result } = parses(CallToolResponse, fixture('call-tool-result-2026-07-28-array'));
    expect(result.structuredContent).toEqual(['a', 'b']);
    expect(parses(CallToolResultSchema, { content: [], structuredContent: null }).structuredContent).toBeNull();
  });

  it('names the broken content part', () => {
    const bad = broken('call-tool-result-mixed-content', (m) => {
      m.result.content[5].uri = null;
    });
    expect(rejectedAt(CallToolResponse, bad)).toEqual(['result.content.5.uri']);
  });

  it('rejects a result without content or with a non-boolean isError', () => {
    expect(rejectedAt(CallToolResultSchema, { structuredContent: {} })).toEqual(['content']);
    expect(rejectedAt(CallToolResultSchema, { content: [], isError: 'no' })).toEqual(['isError']);
  });

  it('parses a 2026-07-28 request with per-request _meta', () => {
    const message = parses(
      requestSchema('tools/call', CallToolRequestParamsSchema),
      fixture('call-tool-request-2026-07-28'),
    );
    expect(message.params._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} } });
  });

  it('rejects arguments that are not an object and a malformed log level in _meta', () => {
    expect(rejectedAt(CallToolRequestParamsSchema, { name: 't', arguments: [1] })).toEqual(['arguments']);
    expect(
      rejectedAt(CallToolRequestParamsSchema, { name: 't', _meta: { 'io.modelcontextprotocol/logLevel': 'loud' } }),
    ).toEqual(['_meta.io.modelcontextprotocol/logLevel']);
  });
});

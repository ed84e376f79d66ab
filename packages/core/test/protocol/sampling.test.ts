import { describe, expect, it } from 'vitest';
import {
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  RequestMethod,
  requestSchema,
  SamplingMessageSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const CreateMessageRequest = requestSchema(RequestMethod.CreateMessage, CreateMessageRequestParamsSchema);

describe('sampling/createMessage', () => {
  it('parses a 2024-11-05 request with model preferences', () => {
    const { params } = parses(CreateMessageRequest, fixture('create-message-request-2024-11-05'));
    expect(params.modelPreferences?.hints).toEqual([{ name: 'claude-3-sonnet' }]);
    expect([params.maxTokens, params.includeContext]).toEqual([100, 'thisServer']);
  });

  it('parses a 2025-11-25 tool loop: tools, toolChoice, tool_use and tool_result arrays', () => {
    const { params } = parses(CreateMessageRequest, fixture('create-message-request-2025-11-25-tools'));
    expect(params.tools?.[0]?.name).toBe('get_weather');
    expect(params.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(params.messages[2]?.content).toMatchObject([
      { type: 'tool_result', structuredContent: { temperature: 18 } },
    ]);
  });

  it('names the broken field inside a tool loop', () => {
    const noToolUseId = broken('create-message-request-2025-11-25-tools', (m) => {
      delete m.params.messages[2].content[0].toolUseId;
    });
    expect(rejectedAt(CreateMessageRequest, noToolUseId)).toEqual(['params.messages.2.content.0.toolUseId']);
    const badNested = broken('create-message-request-2025-11-25-tools', (m) => {
      m.params.messages[2].content[0].content[0].text = false;
    });
    expect(rejectedAt(CreateMessageRequest, badNested)).toEqual(['params.messages.2.content.0.content.0.text']);
  });

  it('requires maxTokens and rejects an unknown toolChoice mode', () => {
    const noMax = broken('create-message-request-2024-11-05', (m) => {
      delete m.params.maxTokens;
    });
    expect(rejectedAt(CreateMessageRequest, noMax)).toEqual(['params.maxTokens']);
    const badChoice = broken('create-message-request-2025-11-25-tools', (m) => {
      m.params.toolChoice.mode = 'sometimes';
    });
    expect(rejectedAt(CreateMessageRequest, badChoice)).toEqual(['params.toolChoice.mode']);
  });

  it('rejects a message with a role other than user or assistant', () => {
    expect(rejectedAt(SamplingMessageSchema, { role: 'system', content: { type: 'text', text: 'x' } })).toEqual([
      'role',
    ]);
  });

  it('parses the client result, single block or list', () => {
    expect(parses(CreateMessageResultSchema, fixture('create-message-result')).stopReason).toBe('endTurn');
    const result = parses(CreateMessageResultSchema, {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c', name: 'n', input: {} }],
      model: 'm',
      stopReason: 'toolUse',
    });
    expect(Array.isArray(result.content)).toBe(true);
    expect(rejectedAt(CreateMessageResultSchema, { role: 'assistant', content: { type: 'text', text: '' } })).toEqual([
      'model',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  CompleteRequestParamsSchema,
  CompleteResultSchema,
  GetPromptRequestParamsSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  PromptMessageSchema,
  requestSchema,
  resultResponseSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const GetPromptResponse = resultResponseSchema(GetPromptResultSchema);

describe('prompts', () => {
  it('parses a 2025-11-25 prompt list with arguments and icons', () => {
    const { result } = parses(resultResponseSchema(ListPromptsResultSchema), fixture('list-prompts-2025-11-25'));
    expect(result.prompts[0]?.arguments).toEqual([{ name: 'code', description: 'The code to review', required: true }]);
  });

  it('parses a prompt whose messages hold text, a resource link and an image', () => {
    const { result } = parses(GetPromptResponse, fixture('get-prompt-result-2025-06-18'));
    expect(result.messages.map((message) => message.content.type)).toEqual(['text', 'resource_link', 'image']);
  });

  it('names the bad field of a message', () => {
    const badRole = broken('get-prompt-result-2025-06-18', (m) => {
      m.result.messages[1].role = 'system';
    });
    expect(rejectedAt(GetPromptResponse, badRole)).toEqual(['result.messages.1.role']);
    const badContent = broken('get-prompt-result-2025-06-18', (m) => {
      delete m.result.messages[2].content.mimeType;
    });
    expect(rejectedAt(GetPromptResponse, badContent)).toEqual(['result.messages.2.content.mimeType']);
  });

  it('takes exactly one content block per message', () => {
    expect(rejectedAt(PromptMessageSchema, { role: 'user', content: [{ type: 'text', text: 'a' }] })).toEqual([
      'content',
    ]);
  });

  it('requires string argument values', () => {
    expect(rejectedAt(GetPromptRequestParamsSchema, { name: 'p', arguments: { n: 3 } })).toEqual(['arguments.n']);
  });
});

describe('completion/complete', () => {
  it('parses a request with a resource template reference and context', () => {
    const message = parses(
      requestSchema('completion/complete', CompleteRequestParamsSchema),
      fixture('complete-request-2025-06-18'),
    );
    expect(message.params.context?.arguments).toEqual({ owner: 'modelcontextprotocol' });
  });

  it('rejects an unknown reference type at ref.type', () => {
    const params = { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } };
    expect(rejectedAt(CompleteRequestParamsSchema, params)).toEqual(['ref.type']);
  });

  it('parses a result and rejects more than 100 values', () => {
    const { result } = parses(resultResponseSchema(CompleteResultSchema), fixture('complete-result'));
    expect(result.completion).toEqual({ values: ['python', 'pytorch', 'pyside'], total: 10, hasMore: true });
    const values = Array.from({ length: 101 }, (_, i) => `v${i}`);
    expect(rejectedAt(CompleteResultSchema, { completion: { values } })).toEqual(['completion.values']);
    expect(parses(CompleteResultSchema, { completion: { values: values.slice(1) } }).completion.values).toHaveLength(
      100,
    );
  });
});

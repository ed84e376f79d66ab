import { describe, expect, it } from 'vitest';
import { cutDescription, schemaBytes, toolBounds } from '../../src/connections/tool-bounds.js';

// The bounds on their own (packages/ai-sdk/test/hostile-servers.test.ts runs them on real servers):
// the edges no server over a real transport can reach.

describe('cutDescription', () => {
  it('keeps a description at the bound, and cuts one past it to the bound with an ellipsis', () => {
    expect(cutDescription('abc', 3)).toBe('abc');
    expect(cutDescription('abcd', 3)).toBe('ab…');
    expect(cutDescription('abcd', 1)).toBe('…');
  });
});

describe('schemaBytes', () => {
  it('takes a schema too deep to write as JSON as past every bound', () => {
    let schema: Record<string, unknown> = { type: 'object' };
    for (let depth = 0; depth < 100_000; depth++) schema = { type: 'object', properties: { a: schema } };
    expect(schemaBytes({ name: 'deep', inputSchema: schema } as never)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('toolBounds', () => {
  it('takes Infinity for no bound', () => {
    expect(toolBounds({ maxDescriptionChars: Number.POSITIVE_INFINITY }, 'mcpToolSet')).toEqual({
      maxDescriptionChars: Number.POSITIVE_INFINITY,
      maxSchemaBytes: 65_536,
    });
  });

  it('refuses NaN and non-numbers', () => {
    expect(() => toolBounds({ maxSchemaBytes: Number.NaN }, 'mcpToolSet')).toThrow(TypeError);
    expect(() => toolBounds({ maxDescriptionChars: '10' as never }, 'mcpToolSet')).toThrow(TypeError);
  });
});

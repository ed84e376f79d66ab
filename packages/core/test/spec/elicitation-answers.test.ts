import { describe, expect, it } from 'vitest';
import { type ElicitationHandler, McpError } from '../../src/index.js';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** A form with a field of every kind the restricted schema has. */
const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 10 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    score: { type: 'number', maximum: 1 },
    subscribe: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    labels: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
  },
  required: ['name', 'age'],
};

const VALID = {
  name: 'Ada',
  age: 36,
  score: 0.5,
  subscribe: true,
  colour: 'red',
  size: 'l',
  tags: ['a'],
  labels: ['x'],
};

/** A 2025-11-25 client whose elicitation handler accepts with `content`; asks the form once. */
async function answering(content: Record<string, unknown>) {
  const handler = (() => ({ action: 'accept', content })) as ElicitationHandler;
  const { server, errors } = await connected({ elicitation: handler }, { protocolVersion: '2025-11-25' });
  const response = await server.request('elicitation/create', { message: 'About you', requestedSchema: FORM });
  return { response, errors };
}

/** Checklist §8.3 (elicitation): answers are checked against `requestedSchema` before they are sent. */
describe('spec: elicitation answers fit the requestedSchema', () => {
  it('sends an accepted answer that fits every field of the form', async () => {
    const { response, errors } = await answering(VALID);
    expect(response.result).toEqual({ action: 'accept', content: VALID });
    expect(errors).toEqual([]);
  });

  it.each([
    ['a required field missing', { ...VALID, age: undefined }, 'content.age: required'],
    ['a field the form did not ask for', { ...VALID, password: 'hunter2' }, 'content.password: not a field'],
    ['a string too short', { ...VALID, name: 'A' }, 'content.name: must be at least 2 characters'],
    ['a string too long', { ...VALID, name: 'Ada Lovelace King' }, 'content.name: must be at most 10 characters'],
    ['a number for a string', { ...VALID, name: 42 }, 'content.name: must be a string'],
    ['a fraction for an integer', { ...VALID, age: 36.5 }, 'content.age: must be an integer'],
    ['an integer under its minimum', { ...VALID, age: -1 }, 'content.age: must be at least 0'],
    ['a number over its maximum', { ...VALID, score: 2 }, 'content.score: must be at most 1'],
    ['a string for a boolean', { ...VALID, subscribe: 'yes' }, 'content.subscribe: must be a boolean'],
    ['a value outside its enum', { ...VALID, colour: 'blue' }, 'content.colour: must be one of the options'],
    ['a value outside its titled options', { ...VALID, size: 'm' }, 'content.size: must be one of the options'],
    ['a multi-select item outside its enum', { ...VALID, tags: ['z'] }, 'content.tags: must hold only options'],
    ['a multi-select item outside its titled options', { ...VALID, labels: ['y'] }, 'content.labels: must hold only'],
    ['too many items', { ...VALID, tags: ['a', 'b', 'c'] }, 'content.tags: must be at most 2 items'],
    ['too few items', { ...VALID, tags: [] }, 'content.tags: must be at least 1 items'],
  ])(
    'refuses an accepted answer with %s: -32603 to the server, McpError naming the field to onError, no content sent',
    async (_, content, breach) => {
      const { response, errors } = await answering(JSON.parse(JSON.stringify(content)));
      expect(response.result).toBeUndefined();
      expect(response.error?.code).toBe(-32603);
      expect(response.error?.message).toContain(breach);
      expect(JSON.stringify(response)).not.toContain('hunter2');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(McpError);
      expect(errors[0]?.message).toContain(breach);
    },
  );

  it('sends decline and cancel as given: only accept carries content to check', async () => {
    const handler: ElicitationHandler = () => ({ action: 'decline' });
    const { server, errors } = await connected({ elicitation: handler }, { protocolVersion: '2025-11-25' });
    const response = await server.request('elicitation/create', { message: 'About you', requestedSchema: FORM });
    expect(response.result).toEqual({ action: 'decline' });
    expect(errors).toEqual([]);
  });
});

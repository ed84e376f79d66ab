import { describe, expect, it } from 'vitest';
import { toolBounds } from '../../src/connections/tool-bounds.js';
import { type CatalogueSource, toolCatalogue } from '../../src/connections/tool-catalogue.js';
import type { Tool } from '../../src/protocol/tools.js';

// The catalogue on its own: the naming rule of tool-names.ts over sources that
// come and go (a server set adds and removes servers), with the bounds applied
// before naming. The AI SDK adapter and the server set run it on real servers.

const tools = (...names: string[]): Tool[] => names.map((name) => ({ name, inputSchema: { type: 'object' } }));
const bounds = toolBounds({}, 'Servers');
const catalogue = (sources: CatalogueSource[], previous?: ReturnType<typeof toolCatalogue>) =>
  toolCatalogue(sources, { bounds, caller: 'Servers', ...(previous && { previous }) });
const pairs = ({ tools }: ReturnType<typeof toolCatalogue>) => tools.map(({ server, name }) => [server, name]);

describe('toolCatalogue', () => {
  it('keeps the names of a source when another is added before it', () => {
    const first = catalogue([{ name: 'b', tools: tools('x') }]);
    expect(pairs(first)).toEqual([['b', 'x']]);
    // `a` comes first in the set now and lists `x` too: `b`'s tool keeps its name.
    const second = catalogue(
      [
        { name: 'a', tools: tools('x') },
        { name: 'b', tools: tools('x') },
      ],
      first,
    );
    expect(pairs(second)).toEqual([
      ['a', 'a__x'],
      ['b', 'x'],
    ]);
  });

  it('keeps the names of a source when one before it is removed', () => {
    const first = catalogue([
      { name: 'a', tools: tools('x') },
      { name: 'b', tools: tools('x', 'y') },
    ]);
    expect(pairs(first)).toEqual([
      ['a', 'a__x'],
      ['b', 'b__x'],
      ['b', 'y'],
    ]);
    expect(pairs(catalogue([{ name: 'b', tools: tools('x', 'y') }], first))).toEqual([
      ['b', 'b__x'],
      ['b', 'y'],
    ]);
  });

  it('leaves out a tool past maxSchemaBytes before naming, so it takes no name', () => {
    const huge: Tool = { name: 'x', inputSchema: { type: 'object', description: 'd'.repeat(100) } };
    const result = toolCatalogue(
      [
        { name: 'a', tools: [huge] },
        { name: 'b', tools: tools('x') },
      ],
      { bounds: toolBounds({ maxSchemaBytes: 50 }, 'Servers'), caller: 'Servers' },
    );
    expect(pairs(result)).toEqual([['b', 'x']]);
    expect(result.warnings).toEqual([
      'Servers: left out tool "x" of a: its input schema is 134 bytes, past maxSchemaBytes (50)',
    ]);
  });

  it('offers a description cut to maxDescriptionChars and keeps the tool as listed', () => {
    const long: Tool = { name: 'x', description: 'abcdef', inputSchema: { type: 'object' } };
    const result = toolCatalogue([{ name: 'a', tools: [long] }], {
      bounds: toolBounds({ maxDescriptionChars: 4 }, 'Servers'),
      caller: 'Servers',
    });
    expect(result.tools[0]?.description).toBe('abc…');
    expect(result.tools[0]?.tool).toBe(long);
    expect(result.warnings).toEqual([
      'Servers: the description of tool "x" of a is cut to 4 characters (maxDescriptionChars)',
    ]);
  });

  it("begins each warning with its caller's name", () => {
    const result = catalogue([
      { name: 'docs', tools: tools('github__create_issue') },
      { name: 'github', tools: tools() },
    ]);
    expect(result.warnings).toEqual([
      'Servers: tool "github__create_issue" of docs is named docs__github__create_issue: github__ names the tools of github',
    ]);
  });
});

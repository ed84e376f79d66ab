import type { Tool } from '@mcp/core';
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, nameTools, validToolName } from '../src/tool-names.js';

// The naming rule on its own (mcp-tool-set.test.ts runs it on real servers):
// names past the 64-character bound, characters providers refuse, and names
// that collide before or after they are made valid.

const tools = (...names: string[]): Tool[] => names.map((name) => ({ name, inputSchema: { type: 'object' } }));
const names = (sources: string[], listings: Tool[][], prefixAll = false) =>
  nameTools(sources, listings, prefixAll).map(({ source, tool, name }) => [source, tool.name, name]);

describe('validToolName', () => {
  it('keeps letters, digits, _ and - and turns anything else into _', () => {
    expect(validToolName('read_file-2')).toBe('read_file-2');
    expect(validToolName('files.read')).toBe('files_read');
    expect(validToolName('café au lait/v2')).toBe('caf__au_lait_v2');
    expect(validToolName('')).toBe('_');
  });

  it(`cuts a name past ${MAX_TOOL_NAME_LENGTH} characters`, () => {
    expect(validToolName('x'.repeat(MAX_TOOL_NAME_LENGTH))).toHaveLength(64);
    expect(validToolName('y'.repeat(200))).toBe('y'.repeat(64));
  });
});

describe('nameTools', () => {
  it('keeps each MCP name when no other source lists it', () => {
    expect(names(['a', 'b'], [tools('search', 'fetch'), tools('echo')])).toEqual([
      [0, 'search', 'search'],
      [0, 'fetch', 'fetch'],
      [1, 'echo', 'echo'],
    ]);
  });

  it('prefixes only the names several sources list, every one of them', () => {
    expect(names(['github', 'gitlab'], [tools('search', 'issues'), tools('search', 'pipelines')])).toEqual([
      [0, 'search', 'github__search'],
      [0, 'issues', 'issues'],
      [1, 'search', 'gitlab__search'],
      [1, 'pipelines', 'pipelines'],
    ]);
  });

  it('prefixes every name when asked to', () => {
    expect(names(['gh'], [tools('search', 'issues')], true)).toEqual([
      [0, 'search', 'gh__search'],
      [0, 'issues', 'gh__issues'],
    ]);
  });

  it('gives a name taken after it was made valid _2, _3, …, and an unchanged name wins', () => {
    expect(names(['s'], [tools('a.b', 'a b', 'a_b')])).toEqual([
      [0, 'a.b', 'a_b_2'],
      [0, 'a b', 'a_b_3'],
      [0, 'a_b', 'a_b'],
    ]);
  });

  it(`keeps names unique and within ${MAX_TOOL_NAME_LENGTH} characters when cutting makes them collide`, () => {
    const long = 'z'.repeat(70);
    const result = nameTools(['s'], [tools(`${long}1`, `${long}2`, `${long}3`)], false).map(({ name }) => name);
    expect(result).toEqual(['z'.repeat(64), `${'z'.repeat(62)}_2`, `${'z'.repeat(62)}_3`]);
    for (const name of result) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
  });

  it("makes an odd source name valid, and cuts a long one before the tool's own name", () => {
    const [named] = nameTools(['my server.v2', 'other'], [tools('x'), tools('x')], false);
    expect(named?.name).toBe('my_server_v2__x');
    const [cut] = nameTools(['s'.repeat(80), 'other'], [tools('create_issue'), tools('create_issue')], false);
    expect(cut?.name).toBe(`${'s'.repeat(50)}__create_issue`);
    const [both] = nameTools(['s'.repeat(80), 'other'], [tools('t'.repeat(80)), tools('t'.repeat(80))], false);
    expect(both?.name).toBe(`s__${'t'.repeat(61)}`);
  });

  it('keeps two tools one server lists under the same name apart', () => {
    expect(names(['s'], [tools('dup', 'dup')])).toEqual([
      [0, 'dup', 'dup'],
      [0, 'dup', 'dup_2'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { checkSourceNames, MAX_TOOL_NAME_LENGTH, nameTools, validToolName } from '../../src/connections/tool-names.js';
import type { Tool } from '../../src/protocol/tools.js';

// The naming rule on its own (packages/ai-sdk/test/mcp-tool-set.test.ts runs it on real servers):
// names past the 64-character bound, characters providers refuse, and names
// that collide before or after they are made valid.

const tools = (...names: string[]): Tool[] => names.map((name) => ({ name, inputSchema: { type: 'object' } }));
const names = (sources: string[], listings: Tool[][], prefixAll = false) =>
  nameTools({ sources, listings, prefixAll, caller: 'mcpToolSet' }).map(({ source, tool, name }) => [
    source,
    tool.name,
    name,
  ]);

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
    const result = nameTools({
      sources: ['s'],
      listings: [tools(`${long}1`, `${long}2`, `${long}3`)],
      prefixAll: false,
      caller: 'mcpToolSet',
    }).map(({ name }) => name);
    expect(result).toEqual(['z'.repeat(64), `${'z'.repeat(62)}_2`, `${'z'.repeat(62)}_3`]);
    for (const name of result) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
  });

  it("cuts a long prefixed name in the tool's part, never the source's", () => {
    const [cut] = nameTools({
      sources: ['s'.repeat(32), 'other'],
      listings: [tools('t'.repeat(80)), tools('t'.repeat(80))],
      prefixAll: false,
      caller: 'mcpToolSet',
    });
    expect(cut?.name).toBe(`${'s'.repeat(32)}__${'t'.repeat(30)}`);
  });

  it('keeps two tools one server lists under the same name apart', () => {
    expect(names(['s'], [tools('dup', 'dup')])).toEqual([
      [0, 'dup', 'dup'],
      [0, 'dup', 'dup_2'],
    ]);
  });
});

describe('checkSourceNames', () => {
  it("takes letters, digits and '-' with single '_' between them, up to 32 characters", () => {
    for (const name of ['github', 'my-server_2', 's0', 'x'.repeat(32)]) {
      expect(() => checkSourceNames([name], 'key', 'mcpToolSet')).not.toThrow();
    }
  });

  it("refuses a name that could begin another source's prefix, or would not fit", () => {
    for (const name of ['', 'a__b', 'a_', '_a', 'my server', 'a.b', 'x'.repeat(33)]) {
      expect(() => checkSourceNames([name], 'key', 'mcpToolSet')).toThrow(TypeError);
    }
  });

  it('refuses two names that differ only in case', () => {
    expect(() => checkSourceNames(['GitHub', 'github'], 'key', 'mcpToolSet')).toThrow(
      'two keys are "github" but for case',
    );
  });
});

describe('each source owns the names that begin with its prefix', () => {
  it("gives another source's tool no name that begins with the prefix in another case", () => {
    expect(names(['docs', 'github'], [tools('GITHUB__create_issue'), tools('create_issue')])).toEqual([
      [0, 'GITHUB__create_issue', 'docs__GITHUB__create_issue'],
      [1, 'create_issue', 'create_issue'],
    ]);
  });

  it("never gives another source's tool such a name, not even by a _2 suffix", () => {
    // "github_" twice: the second would be "github__2", in github's names.
    expect(names(['docs', 'github'], [tools('github_', 'github_'), tools('x')])).toEqual([
      [0, 'github_', 'github_'],
      [0, 'github_', 'docs__github_'],
      [1, 'x', 'x'],
    ]);
  });

  it('prefixes the names two sources share once made valid, so neither takes the plain name', () => {
    expect(names(['a', 'b'], [tools('create.issue'), tools('create_issue')])).toEqual([
      [0, 'create.issue', 'a__create_issue'],
      [1, 'create_issue', 'b__create_issue'],
    ]);
  });

  it('gives a tool still listed the name it had before, and a newcomer the next free one', () => {
    const first = nameTools({
      sources: ['a', 'b'],
      listings: [tools('x'), tools('y')],
      prefixAll: false,
      caller: 'mcpToolSet',
    });
    const previous = new Map(first.map(({ key, name }) => [key, name]));
    const second = nameTools({
      sources: ['a', 'b'],
      listings: [tools('x'), tools('y', 'x')],
      prefixAll: false,
      caller: 'mcpToolSet',
      previous,
    });
    expect(second.map(({ source, name }) => [source, name])).toEqual([
      [0, 'x'],
      [1, 'y'],
      [1, 'b__x'],
    ]);
    // Once a's x is gone, b's keeps the name it was given: a name changes only with a fresh set.
    const later = new Map(second.map(({ key, name }) => [key, name]));
    const third = nameTools({
      sources: ['a', 'b'],
      listings: [tools(), tools('y', 'x')],
      prefixAll: false,
      caller: 'mcpToolSet',
      previous: later,
    });
    expect(third.map(({ name }) => name)).toEqual(['y', 'b__x']);
  });
});

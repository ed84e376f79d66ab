import { describe, expect, it } from 'vitest';
// The official v2 server SDK renders frontmatter to the JSON its entries carry: our parse must agree with it.
import { skillEntry } from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/ext/skills/index.mjs';
import { parseSkillMarkdown } from '../../src/skills/index.js';

const doc = (yaml: string, body = '# Body\n') => `---\nname: probe\ndescription: A probe\n${yaml}\n---\n${body}`;

/** The frontmatter the official SDK publishes for this SKILL.md. */
const published = async (markdown: string) => (await skillEntry('probe', { 'SKILL.md': markdown })).frontmatter;

describe('parseSkillMarkdown agrees with the official SDK on the YAML skills use', () => {
  const cases: Record<string, string> = {
    'plain, quoted and escaped scalars with comments': [
      "license: 'It''s MIT'  # single quotes",
      'title: "Quoted \\"desc\\" with \\u00e9, \\x41 and \\t tab"',
      'allowed-tools: Read Bash(git:*) # a comment',
      'homepage: https://example.com/a#frag',
    ].join('\n'),
    'numbers, booleans and null by the core schema': [
      'x-int: 42',
      'x-neg: -7',
      'x-float: 1.5e2',
      'x-hex: 0x1F',
      'x-octal: 0o17',
      'x-true: True',
      'x-false: false',
      'x-tilde: ~',
      'x-empty:',
      'x-version: 1.0.0',
      'x-yes: yes',
    ].join('\n'),
    'nested mappings by indentation': [
      'metadata:',
      '  version: "2.1.0"',
      '  owner: docs-team  # who',
      'after: top',
    ].join('\n'),
    'flow and block sequences of scalars': [
      'x-flow: [a, "b c", 3, true, ]',
      'x-empty-flow: []',
      'x-block:',
      '- one',
      "- 'two'",
      'x-indented:',
      '    - 1',
      '    - null',
    ].join('\n'),
    'folded, literal and multi-line plain scalars': [
      'compatibility: >-',
      '  Needs git',
      '  and a shell',
      '',
      '  second paragraph',
      'x-literal: |+',
      '  line one',
      '    indented',
      '',
      'x-clip: |',
      '  kept',
      '',
      'x-plain: first line',
      '  continues here',
    ].join('\n'),
  };

  for (const [name, yaml] of Object.entries(cases)) {
    it(name, async () => {
      const markdown = doc(yaml);
      expect(parseSkillMarkdown(markdown).frontmatter).toEqual(await published(markdown));
    });
  }

  it('keeps the body after the closing delimiter, with CRLF line ends and a BOM', () => {
    const parsed = parseSkillMarkdown('\uFEFF---\r\nname: crlf\r\ndescription: d\r\n---\r\nBody line\r\n');
    expect(parsed).toEqual({ frontmatter: { name: 'crlf', description: 'd' }, body: 'Body line\n' });
  });

  it('keeps __proto__ as an ordinary field', () => {
    const { frontmatter } = parseSkillMarkdown(doc('__proto__: x'));
    expect(Object.getPrototypeOf(frontmatter)).toBe(Object.prototype);
    expect(Object.keys(frontmatter)).toContain('__proto__');
  });
});

describe('parseSkillMarkdown refuses what it does not understand', () => {
  const refused: Record<string, string> = {
    'no frontmatter': '# Just markdown\n',
    'no closing delimiter': '---\nname: x\ndescription: y\n',
    'an anchor': doc('x: &a value'),
    'an alias': doc('x: *a'),
    'a tag': doc('x: !!str 1'),
    'a flow mapping with content': doc('x: {a: 1}'),
    'a nested flow sequence': doc('x: [a, [b]]'),
    'a quoted string across lines': doc('x: "one\n  two"'),
    'a tab in indentation': doc('metadata:\n\tkey: v'),
    'a duplicate key': doc('x: 1\nx: 2'),
    'a value that is itself a mapping on one line': doc('x: a: b'),
    'a sequence of mappings': doc('x:\n  - key: v'),
    'a complex key': doc('? x\n: y'),
    'an explicit indentation indicator': doc('x: |2\n    text'),
    infinity: doc('x: .inf'),
    'a top-level sequence': '---\n- a\n---\n',
    'text after a quoted value': doc('x: "a" b'),
  };

  for (const [name, markdown] of Object.entries(refused)) {
    it(name, () => {
      expect(() => parseSkillMarkdown(markdown)).toThrow(SyntaxError);
    });
  }

  it('names the SKILL.md line at fault', () => {
    expect(() => parseSkillMarkdown(doc('x: &a value'))).toThrow(/line 4/);
  });
});

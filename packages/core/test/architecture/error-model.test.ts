import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The TypeScript 6 compiler API (TypeScript 7, which typechecks the project, ships none): a real parse, so
// comments and strings never look like code, and code split over lines is still one expression.
import ts from '@typescript/typescript6';
import { describe, expect, it } from 'vitest';

/**
 * The error model, kept by reading the sources:
 * - JSON-RPC error codes are named through `ErrorCode` (protocol/error-codes.ts), never written as numbers;
 * - a `ProtocolError`'s data has one shape, so its second argument is an object literal or absent;
 * - a bound the client enforces fails with `LimitError`, so no `McpError` or `ProtocolError` message names a
 *   limit option.
 * Each finding names the file and line.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCE_DIRS = ['packages/core/src', 'packages/node-stdio/src'];
/** The one file where error codes are numbers. */
const CODES_FILE = 'packages/core/src/protocol/error-codes.ts';

/** JSON-RPC's reserved range (-32768 to -32000): what a code literal looks like. */
const isReservedCode = (value: number) => value >= 32_000 && value <= 32_768;
/** An option that sets a bound, as a message would name it: `limits.maxPages`, `maxMessageBytes`. */
const LIMIT_OPTION = /\blimits\.\w|\bmax[A-Z]\w*/;

/** `.ts` files under `dir`, as paths relative to the repository root. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** One breach of the model: where, what rule, and the code that breaks it (cut to 120 characters). */
interface Finding {
  readonly at: string;
  readonly rule: string;
  readonly code: string;
}

/** What breaks the error model in one file's source, in source order. */
function errorModelFindings(file: string, source: string): Finding[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const report = (node: ts.Node, rule: string) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    const code = node.getText(sourceFile).replace(/\s+/g, ' ');
    findings.push({ at: `${file}:${line + 1}`, rule, code: code.length > 120 ? `${code.slice(0, 120)}…` : code });
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand) &&
      isReservedCode(Number(node.operand.text)) &&
      file !== CODES_FILE
    ) {
      report(node, 'a JSON-RPC error code written as a number: name it through ErrorCode');
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
      const created = node.expression.text;
      const [message, data] = node.arguments ?? [];
      if (created === 'ProtocolError' && data !== undefined && !ts.isObjectLiteralExpression(data)) {
        report(node, 'a ProtocolError whose data is not an object literal ({ issues, received }) or absent');
      }
      if ((created === 'ProtocolError' || created === 'McpError') && message && LIMIT_OPTION.test(message.getText())) {
        report(node, `a ${created} for a bound: a limit fails with LimitError(limit, value, message)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return findings;
}

describe('the error model', () => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);

  it('reads the sources of both packages', () => {
    expect(files).toContain(CODES_FILE);
    expect(files).toContain('packages/node-stdio/src/stdio-transport.ts');
  });

  it('holds in every source file of @mcp/core and @mcp/node-stdio', () => {
    const findings = files.flatMap((file) => errorModelFindings(file, readFileSync(join(ROOT, file), 'utf8')));
    const listed = findings.map(({ at, rule, code }) => `${at}: ${rule}: ${code}`);
    expect(listed, listed.join('\n')).toEqual([]);
  });

  it('finds each kind of breach, with its line, and nothing in comments, strings or the codes file', () => {
    const source = [
      '// -32601 in a comment, and "-32601" in a string, are words',
      "const text = 'the server answered -32002' + `, not -32601`;",
      'if (error.code === -32002) notFound();',
      "throw new ProtocolError(method + ': invalid result', undefined, { cause });",
      "throw new ProtocolError(method + ': more than ' + max + ' pages (limits.maxPages)');",
      'throw new McpError(`an event past maxMessageBytes`);',
      "throw new ProtocolError('fine', { issues: [], received: raw }, { cause });",
      'throw new LimitError("limits.maxPages", max, "more pages");',
    ].join('\n');
    expect(errorModelFindings('x.ts', source).map(({ at, rule }) => `${at}: ${rule}`)).toEqual([
      'x.ts:3: a JSON-RPC error code written as a number: name it through ErrorCode',
      'x.ts:4: a ProtocolError whose data is not an object literal ({ issues, received }) or absent',
      'x.ts:5: a ProtocolError for a bound: a limit fails with LimitError(limit, value, message)',
      'x.ts:6: a McpError for a bound: a limit fails with LimitError(limit, value, message)',
    ]);
    expect(errorModelFindings(CODES_FILE, 'export const ErrorCode = { ParseError: -32700 };')).toEqual([]);
  });
});

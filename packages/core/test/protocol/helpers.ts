import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { expect } from 'vitest';

/** A JSON fixture from `fixtures/`, parsed but untyped, as it would arrive off the wire. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}

/** A deep copy of a fixture with `edit` applied, for building broken variants of real messages. */
// biome-ignore lint/suspicious/noExplicitAny: a test reaches into fixtures freely to break them
export function broken(name: string, edit: (message: any) => void): unknown {
  const message = fixture(name);
  edit(message);
  return message;
}

/** Dotted paths of every issue (`result.capabilities.tools`, `content.1.data`); `''` for the root. */
export function issuePaths(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => v.getDotPath(issue) ?? '');
}

/** Parses `input`, failing the test with the issue paths when it does not validate. */
export function parses<const TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (!result.success) expect.fail(`expected to parse, got issues at: ${issuePaths(result.issues).join(', ')}`);
  return result.output;
}

/** Asserts `input` is rejected and returns the dotted paths of the issues. */
export function rejectedAt(schema: v.GenericSchema, input: unknown): string[] {
  const result = v.safeParse(schema, input);
  expect(result.success, 'expected the input to be rejected').toBe(false);
  return result.success ? [] : issuePaths(result.issues);
}

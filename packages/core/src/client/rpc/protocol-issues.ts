import * as v from 'valibot';
import type { ProtocolIssue } from '../../errors/protocol-error.js';

/** Valibot's issues as a `ProtocolError` carries them: a dotted path and a message each. */
export function protocolIssues(issues: readonly v.BaseIssue<unknown>[]): ProtocolIssue[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }));
}

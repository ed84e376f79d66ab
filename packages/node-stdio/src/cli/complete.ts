import type { CallOptions, Client, Completion } from '@mcp/core';
import type { Command } from './args.js';
import type { Style } from './format.js';

type CompleteCommand = Extract<Command, { kind: 'complete' }>;

/**
 * `completion/complete` for one argument. The one call of `client.complete`
 * in the command line, so a change to its signature is a change here only.
 */
export function completeArgument(
  client: Client,
  command: CompleteCommand,
  context: Record<string, string>,
  call: CallOptions,
): Promise<Completion> {
  const hasContext = Object.keys(context).length > 0;
  return client.complete(
    {
      ref: command.ref,
      argument: { name: command.argument, value: command.value },
      ...(hasContext && { context: { arguments: context } }),
    },
    call,
  );
}

/** One value a line, so the output pipes; a last dim line when the server has more than it sent, or none. */
export function renderCompletion(completion: Completion, style: Style): string[] {
  if (completion.values.length === 0) return [style.dim('(no values)')];
  const lines = [...completion.values];
  if (completion.hasMore || (completion.total !== undefined && completion.total > lines.length)) {
    const total = completion.total === undefined ? '' : ` of ${completion.total}`;
    lines.push(style.dim(`(${lines.length}${total} shown; more match)`));
  }
  return lines;
}

/**
 * A form that calls a tool through the hook's `callTool`, and each call as it goes: its progress
 * (`onProgress`), its result text, or what it rejected with; a running call has an Abort button, whose
 * reason the call must reject with.
 */
import type { UseMcpResult } from '@mcp/react';
import { type FormEvent, useState } from 'react';

interface Call {
  readonly id: number;
  readonly tool: string;
  readonly state: 'running' | 'done' | 'error';
  readonly progress?: string;
  readonly output?: string;
  readonly controller: AbortController;
}

/** The reason an Abort click gives, so a spec can tell it from any other rejection. */
export const ABORT_REASON = 'Stopped by the user';

let nextId = 0;

export function ToolCalls({ callTool }: { callTool: UseMcpResult['callTool'] }) {
  const [calls, setCalls] = useState<readonly Call[]>([]);
  const change = (id: number, patch: Partial<Call>) =>
    setCalls((all) => all.map((call) => (call.id === id ? { ...call, ...patch } : call)));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const tool = String(form.get('tool'));
    const args = JSON.parse(String(form.get('args') || '{}')) as Record<string, unknown>;
    const call: Call = { id: nextId++, tool, state: 'running', controller: new AbortController() };
    setCalls((all) => [...all, call]);
    callTool(tool, args, {
      signal: call.controller.signal,
      onProgress: ({ progress, total, message }) => change(call.id, { progress: message ?? `${progress}/${total}` }),
    }).then(
      (result) => change(call.id, { state: result.isError ? 'error' : 'done', output: result.text }),
      (error: Error) => change(call.id, { state: 'error', output: `${error.name}: ${error.message}` }),
    );
  };

  return (
    <>
      <form aria-label="Call a tool" onSubmit={submit}>
        <input name="tool" aria-label="Tool" />
        <input name="args" aria-label="Arguments" />
        <button type="submit">Call</button>
      </form>
      <ol data-testid="calls">
        {calls.map((call) => (
          <li key={call.id} data-testid={`call-${call.tool}`} data-state={call.state}>
            <span data-testid="progress">{call.progress}</span>
            <output>{call.output}</output>
            {call.state === 'running' && (
              <button type="button" onClick={() => call.controller.abort(new Error(ABORT_REASON))}>
                Abort
              </button>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

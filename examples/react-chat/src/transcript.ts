import type { Progress, Tool, ToolResult } from '@mcp/core';

/**
 * What the conversation shows, one entry each: the user's messages, the
 * model's text, each tool call (its arguments, the server's progress, then
 * its result or error), and notes. What the page shows of them is plain
 * strings: React puts them on the page as text, so nothing a server or a model
 * sends is markup. A tool with an MCP Apps view also keeps what its view is
 * given (the server, the tool, the raw result), which only the sandboxed view reads.
 */
export type Entry =
  | { readonly kind: 'user' | 'assistant' | 'note' | 'error'; readonly id: string; readonly text: string }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
      readonly state: 'running' | 'done' | 'error';
      readonly progress?: Progress;
      readonly output?: string;
      /** The tool has a `ui://` view: its server (by the set's name) and its definition. */
      readonly app?: { readonly server: string; readonly tool: Tool };
      /** The result as the server sent it, for the view. */
      readonly result?: ToolResult;
    };

export type ToolEntry = Extract<Entry, { kind: 'tool' }>;

/** A change to the transcript; `id` names the entry it applies to. */
export type TranscriptAction =
  | { readonly type: 'add'; readonly entry: Entry }
  | { readonly type: 'text'; readonly id: string; readonly delta: string }
  | { readonly type: 'progress'; readonly id: string; readonly progress: Progress }
  | {
      readonly type: 'tool-end';
      readonly id: string;
      readonly state: 'done' | 'error';
      readonly output: string;
      readonly result?: ToolResult;
    };

/** The reducer of `useReducer` over the transcript: a text delta starts its entry when it is the first. */
export function transcriptReducer(entries: readonly Entry[], action: TranscriptAction): readonly Entry[] {
  switch (action.type) {
    case 'add':
      return [...entries, action.entry];
    case 'text': {
      const last = entries.at(-1);
      if (last?.id === action.id && last.kind === 'assistant') {
        return [...entries.slice(0, -1), { ...last, text: last.text + action.delta }];
      }
      return [...entries, { kind: 'assistant', id: action.id, text: action.delta }];
    }
    case 'progress':
      // Progress after the end (a late notification) changes nothing.
      return updateTool(entries, action.id, (entry) =>
        entry.state === 'running' ? { ...entry, progress: action.progress } : entry,
      );
    case 'tool-end':
      return updateTool(entries, action.id, (entry) =>
        entry.state === 'running'
          ? { ...entry, state: action.state, output: action.output, ...(action.result && { result: action.result }) }
          : entry,
      );
  }
}

function updateTool(entries: readonly Entry[], id: string, change: (entry: ToolEntry) => ToolEntry): readonly Entry[] {
  return entries.map((entry) => (entry.kind === 'tool' && entry.id === id ? change(entry) : entry));
}

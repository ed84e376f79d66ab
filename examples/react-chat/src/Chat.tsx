import type { AppMessage } from '@mcp/core/apps';
import { useMcpServers } from '@mcp/react';
import type { ModelMessage } from 'ai';
import { type FormEvent, useEffect, useReducer, useRef, useState } from 'react';
import { chatTurn } from './chat-turn.js';
import { type ModelSettings, modelFrom } from './model.js';
import { PendingRequests } from './PendingRequests.js';
import { ToolCall } from './ToolCall.js';
import { transcriptReducer } from './transcript.js';

/**
 * The conversation: each message is one turn with the tools of every ready
 * server (a server that is signing in or reconnecting lends none), the
 * server requests waiting for the user below it, and the prompt. Stop aborts
 * the turn: the model stream ends and running tool calls are cancelled on
 * their servers.
 */
export function Chat({ settings }: { settings: ModelSettings }) {
  const { set, servers: snapshots } = useMcpServers();
  const [entries, dispatch] = useReducer(transcriptReducer, []);
  /** The conversation as the model sees it: finished turns only. */
  const history = useRef<ModelMessage[]>([]);
  const turns = useRef(0);
  const [turn, setTurn] = useState<AbortController>();
  const anyReady = snapshots.some((server) => server.state.status === 'ready');
  // Read when asked, so a sampling request uses the settings of the moment it is approved.
  const currentModel = useRef(() => modelFrom(settings));
  currentModel.current = () => modelFrom(settings);
  // The newest entry, or a server's new question, scrolls into view.
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when these change, without reading them
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [entries, snapshots]);

  /** Starts a turn with `text` as the user's message; false when one is running already. */
  const submit = (text: string): boolean => {
    if (text === '' || turn || !set) return false;
    const controller = new AbortController();
    setTurn(controller);
    turns.current += 1;
    void chatTurn({
      model: modelFrom(settings),
      servers: set,
      history: history.current,
      text,
      turn: turns.current,
      dispatch,
      signal: controller.signal,
    }).finally(() => setTurn(undefined));
    return true;
  };

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('text') as HTMLTextAreaElement;
    if (submit(input.value.trim())) input.value = '';
  };

  /** A view's `ui/message`: its text goes to the chat as the user's; refused (the view is told) while a turn runs. */
  const fromApp = (message: AppMessage) => {
    const text = message.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
      .trim();
    if (!submit(text)) throw new Error('the chat is busy, or the message has no text');
  };

  return (
    <main>
      <div className="log" aria-live="polite">
        {entries.map((entry) =>
          entry.kind === 'tool' ? (
            <ToolCall key={entry.id} entry={entry} onAppMessage={fromApp} />
          ) : (
            <p key={entry.id} className={`entry ${entry.kind}`} role={entry.kind === 'error' ? 'alert' : undefined}>
              {entry.text}
            </p>
          ),
        )}
        <PendingRequests model={() => currentModel.current()} />
        <div ref={end} />
      </div>
      <form className="prompt" onSubmit={send}>
        <textarea
          name="text"
          rows={2}
          required
          placeholder={anyReady ? 'Ask something…' : 'Add a server to chat with its tools…'}
          aria-label="Message"
          disabled={turn !== undefined || !anyReady}
        />
        <button type="submit" disabled={turn !== undefined || !anyReady}>
          Send
        </button>
        <button type="button" disabled={turn === undefined} onClick={() => turn?.abort()}>
          Stop
        </button>
      </form>
    </main>
  );
}

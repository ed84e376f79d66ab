import type { AppMessage } from '@mcp/core/apps';
import { AppView } from './AppView.js';
import { json } from './text.js';
import type { ToolEntry } from './transcript.js';

/**
 * One tool call: its name and arguments, the server's progress while it runs,
 * then its result or error, and the tool's MCP Apps view when it has one.
 */
export function ToolCall({ entry, onAppMessage }: { entry: ToolEntry; onAppMessage: (message: AppMessage) => void }) {
  const { name, input, state, progress, output, app } = entry;
  return (
    <section className="entry tool" data-state={state} aria-label={`Tool call ${name}`}>
      <h3>
        Tool <code>{name}</code>
      </h3>
      <pre className="input">{json(input)}</pre>
      {progress && (
        <p className="progress">
          {/* No total: an indeterminate bar. */}
          <progress max={progress.total} value={progress.total === undefined ? undefined : progress.progress} />
          <span className="progress-message">
            {progress.message ??
              (progress.total === undefined ? `${progress.progress}` : `${progress.progress} / ${progress.total}`)}
          </span>
        </p>
      )}
      {output !== undefined && <pre className="output">{output}</pre>}
      {app && <AppView entry={entry} app={app} onMessage={onAppMessage} />}
    </section>
  );
}

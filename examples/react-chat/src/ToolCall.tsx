import { json } from './text.js';
import type { ToolEntry } from './transcript.js';

/** One tool call: its name and arguments, the server's progress while it runs, then its result or error. */
export function ToolCall({ entry }: { entry: ToolEntry }) {
  const { name, input, state, progress, output } = entry;
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
    </section>
  );
}

import type { Progress, ToolResult } from '@mcp/core';
import { el, json, transcript } from './dom.js';

/** One tool call in the transcript: its name and arguments, the server's progress, then its result. */
export class ToolCard {
  readonly element: HTMLElement;
  readonly #bar = el('progress', { hidden: true });
  readonly #progressText = el('span', { class: 'progress-message' });
  readonly #output = el('pre', { class: 'output' });

  constructor(toolName: string, input: unknown) {
    this.element = transcript.add(
      el(
        'section',
        { class: 'entry tool', 'data-state': 'running', 'aria-label': `Tool call ${toolName}` },
        el('h3', {}, 'Tool ', el('code', {}, toolName)),
        el('pre', { class: 'input' }, json(input)),
        el('p', { class: 'progress' }, this.#bar, this.#progressText),
        this.#output,
      ),
    );
  }

  /** `notifications/progress` from the server while the tool runs; no `total` shows an indeterminate bar. */
  progress({ progress, total, message }: Progress): void {
    this.#bar.hidden = false;
    if (total !== undefined) {
      this.#bar.max = total;
      this.#bar.value = progress;
    } else {
      this.#bar.removeAttribute('value');
    }
    this.#progressText.textContent = message ?? (total === undefined ? `${progress}` : `${progress} / ${total}`);
  }

  /** The tool's result (`@mcp/ai-sdk` hands the MCP `ToolResult` through): its structured content, else its parts. */
  done(output: unknown): void {
    this.element.dataset.state = 'done';
    this.#output.textContent = shownResult(output);
  }

  /** The tool failed (an `isError` result, a refused call, a lost connection); the model is told too. */
  failed(error: unknown): void {
    this.element.dataset.state = 'error';
    this.#output.textContent =
      error instanceof Error ? `${error.name}: ${error.message}` : typeof error === 'string' ? error : json(error);
  }
}

/** A tool result as text: `structuredContent` as JSON, else text parts as they are and other parts named. */
function shownResult(output: unknown): string {
  const result = output as Partial<ToolResult> | undefined;
  if (result?.structuredContent !== undefined) return json(result.structuredContent);
  if (!Array.isArray(result?.content)) return json(output);
  return result.content
    .map((part) =>
      part.type === 'text' ? String(part.text) : `[${part.type}${'mimeType' in part ? ` ${part.mimeType}` : ''}]`,
    )
    .join('\n');
}

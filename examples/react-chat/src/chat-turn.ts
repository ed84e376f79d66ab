import { mcpToolSet } from '@mcp/ai-sdk';
import type { ToolResult } from '@mcp/core';
import type { Servers } from '@mcp/core/connections';
import { toolResourceUri } from '@mcp/core/protocol';
import { type ModelMessage, stepCountIs, streamText } from 'ai';
import type { ChosenModel } from './model.js';
import { describeError, json } from './text.js';
import type { TranscriptAction } from './transcript.js';

/**
 * How many model steps one user message may take: each step is one model
 * answer, and a step that calls tools is followed by another with their
 * results. Past it the turn ends where it is.
 */
export const MAX_STEPS = 8;

/** What one turn needs: the model, the set whose ready servers lend their tools, the history it extends. */
export interface TurnOptions {
  readonly model: ChosenModel;
  readonly servers: Servers;
  /** The conversation so far as the model sees it; a finished turn's messages are pushed onto it. */
  readonly history: ModelMessage[];
  readonly text: string;
  /** Unique per turn: the transcript entries' ids start with it. */
  readonly turn: number;
  readonly dispatch: (action: TranscriptAction) => void;
  /** Stops the turn: the model stream ends and running tool calls are cancelled on the server. */
  readonly signal: AbortSignal;
}

/**
 * One turn of the conversation: the history plus `text` go to the model with
 * the tools of every server ready now, and the answer streams into the
 * transcript (text, each tool call with its progress and result). Only a turn
 * that finished joins `history`. Never rejects: a failure ends the turn as an
 * error entry.
 */
export async function chatTurn({ model, servers, history, text, turn, dispatch, signal }: TurnOptions): Promise<void> {
  dispatch({ type: 'add', entry: { kind: 'user', id: `${turn}:user`, text } });
  const toolId = (toolCallId: string) => `${turn}:tool:${toolCallId}`;
  const running = new Set<string>();
  /** The model's text after a tool call is a new paragraph. */
  let paragraph = 0;
  try {
    // Progress reaches its own call's entry, also when the model runs several tools at once.
    const tools = await mcpToolSet(servers, {
      callOptions: ({ toolCallId }) => ({
        onProgress: (progress) => dispatch({ type: 'progress', id: toolId(toolCallId), progress }),
      }),
    });
    const messages: ModelMessage[] = [...history, { role: 'user', content: text }];
    const result = streamText({
      model: model.model,
      tools,
      messages,
      stopWhen: stepCountIs(MAX_STEPS),
      abortSignal: signal,
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          dispatch({ type: 'text', id: `${turn}:text:${paragraph}`, delta: part.text });
          break;
        case 'tool-call': {
          paragraph += 1;
          running.add(part.toolCallId);
          const app = appOf(servers, part.toolName);
          dispatch({
            type: 'add',
            entry: {
              kind: 'tool',
              id: toolId(part.toolCallId),
              name: part.toolName,
              input: part.input,
              state: 'running',
              ...(app && { app }),
            },
          });
          break;
        }
        case 'tool-result':
          running.delete(part.toolCallId);
          dispatch({
            type: 'tool-end',
            id: toolId(part.toolCallId),
            state: 'done',
            output: shownResult(part.output),
            ...(isToolResult(part.output) && { result: part.output }),
          });
          break;
        case 'tool-error':
          running.delete(part.toolCallId);
          dispatch({
            type: 'tool-end',
            id: toolId(part.toolCallId),
            state: 'error',
            output: describeError(part.error),
          });
          break;
        case 'abort':
          dispatch({ type: 'add', entry: { kind: 'note', id: `${turn}:stopped`, text: 'Stopped.' } });
          return; // the history keeps only finished turns
        case 'finish':
          // The model still wanted tools when the step bound ended the turn.
          if (part.finishReason === 'tool-calls') {
            dispatch({
              type: 'add',
              entry: { kind: 'note', id: `${turn}:bound`, text: `Stopped after ${MAX_STEPS} steps.` },
            });
          }
          break;
        case 'error':
          throw part.error;
      }
    }
    history.push({ role: 'user', content: text }, ...(await result.response).messages);
  } catch (error) {
    dispatch({ type: 'add', entry: { kind: 'error', id: `${turn}:error`, text: describeError(error) } });
  } finally {
    for (const id of running) dispatch({ type: 'tool-end', id: toolId(id), state: 'error', output: 'Stopped.' });
  }
}

/** The server and definition of the model's tool `name` when it has an MCP Apps view (a `ui://` resource). */
function appOf(servers: Servers, name: string) {
  const entry = servers.tools().find((tool) => tool.name === name);
  return entry && toolResourceUri(entry.tool) !== undefined ? { server: entry.server, tool: entry.tool } : undefined;
}

function isToolResult(output: unknown): output is ToolResult {
  return Array.isArray((output as Partial<ToolResult> | undefined)?.content);
}

/** A tool result as text: `structuredContent` as JSON, else its text parts as they are and other parts named. */
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

import { generateText, type StepResult, stepCountIs, streamText, type ToolSet } from 'ai';
import * as aiTest from 'ai/test';

// The AI SDK's own mock language model, scripted turn by turn. The same tests
// run against ai 6 (MockLanguageModelV3) and, under test/ai7/vitest.config.ts,
// ai 7 (MockLanguageModelV4: its prompts carry media as `file` parts).

/** One model turn: call tools, or answer with text (which ends the loop). */
export type Turn = { readonly calls: readonly { toolName: string; input: unknown }[] } | { readonly text: string };

/** A message of the prompt the model was given, loosely typed across the two spec versions. */
export interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

/** A tool result as the model read it in its prompt. */
export interface SeenToolResult {
  readonly toolName: string;
  readonly output: { readonly type: string; readonly value?: unknown };
}

const Mock: typeof aiTest.MockLanguageModelV3 =
  (aiTest as unknown as { MockLanguageModelV4?: typeof aiTest.MockLanguageModelV3 }).MockLanguageModelV4 ??
  aiTest.MockLanguageModelV3;

/** Which major version of `ai` these tests run against. */
export const aiMajor: 6 | 7 = 'MockLanguageModelV4' in aiTest ? 7 : 6;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that plays `turns` in order (then answers "done") and records every prompt it is given. */
export function scriptedModel(turns: readonly Turn[]) {
  const prompts: PromptMessage[][] = [];
  let step = 0;
  const next = (prompt: unknown): Turn => {
    prompts.push(prompt as PromptMessage[]);
    return turns[step++] ?? { text: 'done' };
  };
  const callId = (index: number) => `call-${step}-${index}`;
  const model = new Mock({
    doGenerate: async ({ prompt }) => {
      const turn = next(prompt);
      return {
        content:
          'text' in turn
            ? [{ type: 'text', text: turn.text }]
            : turn.calls.map((call, index) => ({
                type: 'tool-call' as const,
                toolCallId: callId(index),
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              })),
        finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async ({ prompt }) => {
      const turn = next(prompt);
      const parts = [
        { type: 'stream-start' as const, warnings: [] },
        ...('text' in turn
          ? [
              { type: 'text-start' as const, id: 't' },
              { type: 'text-delta' as const, id: 't', delta: turn.text },
              { type: 'text-end' as const, id: 't' },
            ]
          : turn.calls.map((call, index) => ({
              type: 'tool-call' as const,
              toolCallId: callId(index),
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            }))),
        {
          type: 'finish' as const,
          finishReason: { unified: 'text' in turn ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
          usage,
        },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, prompts };
}

/** How a test drives the loop: the two AI SDK entry points. */
export type LoopMode = 'generateText' | 'streamText';
export const loopModes: readonly LoopMode[] = ['generateText', 'streamText'];

/** What a loop ended with. */
export interface LoopResult {
  readonly text: string;
  readonly steps: readonly StepResult<ToolSet>[];
}

/** Runs a multi-step loop (at most 5 steps) of `model` with `tools`, as `generateText` or `streamText`. */
export async function runLoop(
  mode: LoopMode,
  model: ReturnType<typeof scriptedModel>['model'],
  tools: ToolSet,
  options: { abortSignal?: AbortSignal } = {},
): Promise<LoopResult> {
  const settings = { model, tools, prompt: 'go', stopWhen: stepCountIs(5), ...options };
  if (mode === 'generateText') {
    const result = await generateText(settings);
    return { text: result.text, steps: result.steps };
  }
  let failure: unknown;
  const result = streamText({
    ...settings,
    onError: ({ error }) => {
      failure = error;
    },
  });
  const [text, steps] = await Promise.all([result.text, result.steps]).catch((error: unknown) => {
    throw failure ?? error;
  });
  if (failure !== undefined) throw failure;
  return { text, steps };
}

/** The tool results the model read in `prompt` (in the tool messages, in order). */
export function toolResultsIn(prompt: readonly PromptMessage[] | undefined): SeenToolResult[] {
  return (prompt ?? [])
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as { type: string; toolName: string; output: SeenToolResult['output'] }[])
    .filter((part) => part.type === 'tool-result')
    .map(({ toolName, output }) => ({ toolName, output }));
}

/**
 * A media part as the model reads it in a tool result: ai 6's `image-data` or
 * `file-data`, or ai 7's `file` with tagged data (ai 7 also reads the ai 6
 * parts, with a deprecation warning, and shows them to the model as `file`).
 */
export function mediaPart(data: string, mediaType: string): Record<string, unknown> {
  if (aiMajor === 7) return { type: 'file', mediaType, data: { type: 'data', data } };
  return { type: mediaType.startsWith('image/') ? 'image-data' : 'file-data', data, mediaType };
}

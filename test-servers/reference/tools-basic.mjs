import { z } from 'zod';
import { PNG_BASE64, PNG_MIME_TYPE, WAV_BASE64, WAV_MIME_TYPE } from './fixtures.mjs';
import { staticResourceContents } from './resources.mjs';
import { errorResult, textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/** `echo`: returns its `text` unchanged. The one tool every profile has. */
/** @type {ReferenceTool} */
export const echoTool = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given text as one text part.',
  inputSchema: z.object({ text: z.string().describe('Text to echo back') }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ text }) => textResult(String(text)),
};

/** `add`: structured output alongside the text, for outputSchema handling (2025-06-18+). */
/** @type {ReferenceTool} */
export const addTool = {
  name: 'add',
  title: 'Add',
  description: 'Adds two numbers; returns the sum as text and as structuredContent {sum}.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  outputSchema: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: async ({ a, b }) => {
    const sum = Number(a) + Number(b);
    return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
  },
};

/**
 * `mixed-content`: one part of every content type, in a fixed order, with
 * annotations on the first part and a field no revision defines on the audio
 * part, which clients must carry or ignore but never reject.
 */
/** @type {ReferenceTool} */
export const mixedContentTool = {
  name: 'mixed-content',
  title: 'Mixed content',
  description: 'Returns text, image, audio, embedded resource, resource link and text parts, in that order.',
  inputSchema: z.object({}),
  run: async () => ({
    content: [
      { type: 'text', text: 'first', annotations: { audience: ['user'], priority: 0.5 } },
      { type: 'image', data: PNG_BASE64, mimeType: PNG_MIME_TYPE },
      { type: 'audio', data: WAV_BASE64, mimeType: WAV_MIME_TYPE, unknownExtra: { note: 'not in any MCP revision' } },
      { type: 'resource', resource: staticResourceContents('test://static/text/1') },
      {
        type: 'resource_link',
        uri: 'test://static/binary/1',
        name: 'binary-1',
        mimeType: 'application/octet-stream',
      },
      { type: 'text', text: 'last' },
    ],
  }),
};

/** `fail`: a tool execution error (isError), as opposed to a JSON-RPC error. */
/** @type {ReferenceTool} */
export const failTool = {
  name: 'fail',
  title: 'Fail',
  description: 'Always returns isError: true with the given message.',
  inputSchema: z.object({ message: z.string().optional() }),
  run: async ({ message }) => errorResult(typeof message === 'string' ? message : 'tool failed'),
};

/**
 * `slow`: waits `steps` × `intervalMs`, reporting progress after each interval
 * when asked to (2025-11-25, basic/utilities/progress); stops early when cancelled.
 */
/** @type {ReferenceTool} */
export const slowTool = {
  name: 'slow',
  title: 'Slow',
  description: 'Takes steps × intervalMs milliseconds, sending progress notifications when given a progressToken.',
  inputSchema: z.object({
    steps: z.number().int().min(0).max(1000).default(3),
    intervalMs: z.number().int().min(0).max(60_000).default(50),
  }),
  run: async ({ steps, intervalMs }, ctx) => {
    const total = Number(steps);
    for (let step = 1; step <= total; step++) {
      await delay(Number(intervalMs), ctx.signal);
      if (ctx.signal.aborted) return errorResult('cancelled');
      await ctx.progress(step, total, `step ${step} of ${total}`);
    }
    return textResult(`done after ${total} steps`);
  },
};

/**
 * Resolves after `ms`, or at once when `signal` aborts.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
function delay(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

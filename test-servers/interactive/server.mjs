#!/usr/bin/env node
/**
 * A small stdio server (v1 SDK, low-level `Server`) for the `mcp` command's
 * interactive tests: its tools report progress and send the elicitation and
 * sampling requests a test wants, with whatever text the test gives them, and
 * return what the client answered. `node test-servers/interactive/server.mjs`.
 *
 * - `progress {steps = 5, intervalMs = 50, total = true, message?}`: waits
 *   `intervalMs` before each step and sends `notifications/progress` (when the
 *   call asked for it) with `progress: i`, `total: steps` unless `total` is
 *   false, and `message` (default `step i of steps`). Returns `done after <steps> steps`.
 * - `ask {message, requestedSchema, progressFirst?}`: one form-mode
 *   `elicitation/create`; returns the client's answer as JSON text, or
 *   `isError` with its error. `progressFirst: true` sends progress 1/2
 *   (`asking`) first, when the call asked for progress.
 * - `ask-twice {requestedSchema}`: two form-mode elicitations at once
 *   (messages `first` and `second`); returns both answers as a JSON array.
 * - `ask-url {message, url}`: one URL-mode `elicitation/create` (with an
 *   `elicitationId`); returns the answer as JSON text.
 * - `sample {prompt, systemPrompt?}`: one `sampling/createMessage` (one user
 *   message, `maxTokens: 50`); returns the result as JSON text, or `isError`
 *   with `<code> <message>` of the client's JSON-RPC error.
 *
 * Requests are sent whether or not the client declared the capability, so a
 * test sees what the client does with one it did not ask for.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const object = (properties, required = []) => ({ type: 'object', properties, required });

const TOOLS = [
  {
    name: 'progress',
    description: 'Reports progress for each step, then answers.',
    inputSchema: object({
      steps: { type: 'integer', minimum: 0, maximum: 1000 },
      intervalMs: { type: 'integer', minimum: 0, maximum: 60000 },
      total: { type: 'boolean' },
      message: { type: 'string' },
    }),
  },
  {
    name: 'ask',
    description: 'Sends one form-mode elicitation and returns the answer.',
    inputSchema: object(
      { message: { type: 'string' }, requestedSchema: { type: 'object' }, progressFirst: { type: 'boolean' } },
      ['requestedSchema'],
    ),
  },
  {
    name: 'ask-twice',
    description: 'Sends two form-mode elicitations at once and returns both answers.',
    inputSchema: object({ requestedSchema: { type: 'object' } }, ['requestedSchema']),
  },
  {
    name: 'ask-url',
    description: 'Sends one URL-mode elicitation and returns the answer.',
    inputSchema: object({ message: { type: 'string' }, url: { type: 'string' } }, ['url']),
  },
  {
    name: 'sample',
    description: 'Asks the client to sample and returns the result.',
    inputSchema: object({ prompt: { type: 'string' }, systemPrompt: { type: 'string' } }, ['prompt']),
  },
];

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError && { isError }) });
const failure = (error) => text(`${error?.code ?? ''} ${error instanceof Error ? error.message : String(error)}`, true);
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

async function progress(args, extra) {
  const steps = args.steps ?? 5;
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= steps && !extra.signal.aborted; i++) {
    await sleep(args.intervalMs ?? 50, extra.signal);
    if (token === undefined) continue;
    await extra.sendNotification({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: i,
        ...(args.total !== false && { total: steps }),
        message: args.message ?? `step ${i} of ${steps}`,
      },
    });
  }
  return text(`done after ${steps} steps`);
}

async function ask(method, params, schema, extra) {
  try {
    return text(JSON.stringify(await extra.sendRequest({ method, params }, schema)));
  } catch (error) {
    return failure(error);
  }
}

let elicitations = 0;

async function call(name, args, extra) {
  switch (name) {
    case 'progress':
      return progress(args, extra);
    case 'ask': {
      const token = extra._meta?.progressToken;
      if (args.progressFirst && token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2, message: 'asking' },
        });
      }
      return ask(
        'elicitation/create',
        { mode: 'form', message: args.message ?? 'Please answer', requestedSchema: args.requestedSchema },
        ElicitResultSchema,
        extra,
      );
    }
    case 'ask-twice': {
      const both = ['first', 'second'].map((message) =>
        extra.sendRequest(
          { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: args.requestedSchema } },
          ElicitResultSchema,
        ),
      );
      return text(JSON.stringify(await Promise.all(both)));
    }
    case 'ask-url':
      elicitations += 1;
      return ask(
        'elicitation/create',
        { mode: 'url', message: args.message ?? 'Please sign in', url: args.url, elicitationId: `e${elicitations}` },
        ElicitResultSchema,
        extra,
      );
    case 'sample':
      return ask(
        'sampling/createMessage',
        {
          messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
          ...(args.systemPrompt !== undefined && { systemPrompt: args.systemPrompt }),
          maxTokens: 50,
        },
        CreateMessageResultSchema,
        extra,
      );
    default:
      return text(`unknown tool ${name}`, true);
  }
}

const server = new Server({ name: 'interactive-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
  call(request.params.name, request.params.arguments ?? {}, extra),
);
server.onerror = (error) => process.stderr.write(`interactive server: ${error.message}\n`);
process.stdin.on('end', () => void server.close());
await server.connect(new StdioServerTransport());

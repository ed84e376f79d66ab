/**
 * The OpenAI Chat Completions answer shapes, as `@ai-sdk/openai-compatible`
 * 2.0.92 reads them (`OpenAICompatibleChatResponseSchema` and the chunk schema
 * in its dist/index.mjs): a `chat.completion` object, or `chat.completion.chunk`
 * events on an event stream ending with `data: [DONE]`.
 */

/**
 * @typedef {object} Answer
 * @property {string} id the completion id
 * @property {string} model the request's model, echoed
 * @property {string | null} text assistant text (null with tool calls and no text)
 * @property {Array<{ id: string, name: string, arguments: string }>} toolCalls
 * @property {{ prompt_tokens: number, completion_tokens: number, total_tokens: number }} usage
 */

const created = () => Math.floor(Date.now() / 1000);

/** @param {Answer} answer */
const finishReason = (answer) => (answer.toolCalls.length > 0 ? 'tool_calls' : 'stop');

/**
 * The non-streaming answer.
 * @param {Answer} answer
 */
export function completionBody(answer) {
  const toolCalls = answer.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: answer.id,
    object: 'chat.completion',
    created: created(),
    model: answer.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer.text, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
        finish_reason: finishReason(answer),
      },
    ],
    usage: answer.usage,
  };
}

/**
 * The streaming answer, chunk by chunk: the role, the text a word at a time,
 * each tool call as a head (id and name) and its arguments in two halves, the
 * finish reason, the usage when the request asked (`stream_options.include_usage`).
 * @param {Answer} answer
 * @param {{ includeUsage: boolean }} options
 * @returns {object[]}
 */
export function completionChunks(answer, { includeUsage }) {
  const at = created();
  /** @param {object} delta @param {string | null} [finish] */
  const chunk = (delta, finish = null) => ({
    id: answer.id,
    object: 'chat.completion.chunk',
    created: at,
    model: answer.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  for (const word of (answer.text ?? '').match(/\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: word }));
  answer.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    const half = Math.ceil(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      if (part !== '') chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  chunks.push(chunk({}, finishReason(answer)));
  if (includeUsage) {
    chunks.push({
      id: answer.id,
      object: 'chat.completion.chunk',
      created: at,
      model: answer.model,
      choices: [],
      usage: answer.usage,
    });
  }
  return chunks;
}

/**
 * An event-stream body of the chunks and the closing `[DONE]`.
 * @param {object[]} chunks
 */
export function eventStream(chunks) {
  const text = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
  return new TextEncoder().encode(text);
}

/**
 * An error answer in the OpenAI shape (`openaiCompatibleErrorDataSchema`).
 * @param {number} status
 * @param {string} message
 * @param {string} [code]
 */
export function errorResponse(status, message, code) {
  const type = status === 401 ? 'authentication_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return Response.json({ error: { message, type, param: null, code: code ?? null } }, { status });
}

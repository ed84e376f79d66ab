/**
 * The mock model's behaviour: an ordered list of rules, the first whose `when`
 * holds for a request decides the answer. Pure data (JSON), so a test sets it
 * in process, from a file, or over HTTP from a browser test alike.
 */
import * as v from 'valibot';

const JsonObject = v.record(v.string(), v.unknown());

/** What a rule looks at. Every field given must hold; none given matches every request. */
const WhenSchema = v.strictObject({
  /** role of the request's last message */
  last: v.optional(v.picklist(['system', 'user', 'assistant', 'tool'])),
  /** a substring of the last user message's text */
  userSays: v.optional(v.string()),
  /** a substring of the tool results since the last assistant message */
  toolSays: v.optional(v.string()),
});

/** The longest `delayMs` a rule may ask for: a typo must not hold a test (and a socket) for hours. */
export const MAX_DELAY_MS = 60_000;

const RuleSchema = v.pipe(
  v.strictObject({
    when: v.optional(WhenSchema, {}),
    /** wait this long before answering (any action), as a slow model would */
    delayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_DELAY_MS))),
    /** call these tools (in one assistant turn); each must be in the request's `tools` */
    call: v.optional(
      v.pipe(v.array(v.strictObject({ tool: v.string(), args: v.optional(JsonObject, {}) })), v.minLength(1)),
    ),
    /** answer with this text; `{{user}}` and `{{tool}}` are replaced (see `renderReply`) */
    reply: v.optional(v.string()),
    /** answer with an HTTP error in the OpenAI error shape */
    error: v.optional(
      v.strictObject({
        status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
        message: v.string(),
      }),
    ),
  }),
  v.check(
    (rule) => [rule.call, rule.reply, rule.error].filter((action) => action !== undefined).length === 1,
    'a rule has exactly one of call, reply, error',
  ),
);

/** A script: at least one rule. */
export const MockScriptSchema = v.pipe(v.array(RuleSchema), v.minLength(1));

/**
 * Used when nobody set a script: quote the tool results back after a tool
 * turn, else echo the user.
 */
export const DEFAULT_SCRIPT = /** @type {const} */ ([
  { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' },
  { reply: 'You said: {{user}}' },
]);

/**
 * Checks a script; throws a TypeError naming the first problem.
 * @param {unknown} script
 */
export function parseScript(script) {
  const result = v.safeParse(MockScriptSchema, script);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  throw new TypeError(`mock-model script: ${path === '' ? '' : `${path}: `}${issue.message}`);
}

/**
 * The text of a message's content, which is a string or an array of parts.
 * @param {unknown} content
 * @returns {string}
 */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part !== null && typeof part === 'object' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
}

/**
 * What the rules look at in a request's messages.
 * @param {Array<{ role?: unknown, content?: unknown }>} messages
 */
export function conversationOf(messages) {
  const lastUser = messages.findLast((message) => message.role === 'user');
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const toolResults = messages
    .slice(lastAssistant + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => textOf(message.content));
  return {
    last: messages.at(-1)?.role,
    user: lastUser === undefined ? '' : textOf(lastUser.content),
    tool: toolResults.join('\n'),
  };
}

/**
 * The first rule that answers this conversation, or undefined.
 * @param {v.InferOutput<typeof MockScriptSchema>} script
 * @param {ReturnType<typeof conversationOf>} conversation
 */
export function pickRule(script, conversation) {
  return script.find(({ when }) => {
    if (when.last !== undefined && when.last !== conversation.last) return false;
    if (when.userSays !== undefined && !conversation.user.includes(when.userSays)) return false;
    if (when.toolSays !== undefined && !conversation.tool.includes(when.toolSays)) return false;
    return true;
  });
}

/**
 * A reply with `{{user}}` (the last user message's text) and `{{tool}}` (the
 * tool results since the last assistant message, joined by newlines) filled in.
 * @param {string} template
 * @param {ReturnType<typeof conversationOf>} conversation
 */
export function renderReply(template, conversation) {
  return template.replaceAll('{{user}}', conversation.user).replaceAll('{{tool}}', conversation.tool);
}

import * as v from 'valibot';

const Count = v.pipe(v.number(), v.integer(), v.minValue(1));
const Millis = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Which requests a rule is about. Every field given must agree; none given matches every request. */
const MatchSchema = v.strictObject({
  /** JSON-RPC method of the POSTed message (the first one of a batch) */
  method: v.optional(v.string()),
  /** HTTP method */
  httpMethod: v.optional(v.picklist(['POST', 'GET', 'DELETE'])),
  /** `params.name` of a `tools/call` */
  tool: v.optional(v.string()),
  /** whether the request carries `Mcp-Session-Id` */
  session: v.optional(v.boolean()),
  /** apply to the first n matching requests only */
  times: v.optional(Count),
  /** apply to the k-th matching request only (1-based) */
  nth: v.optional(Count),
});

const ActionSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('status'),
    status: v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(599)),
    headers: v.optional(v.record(v.string(), v.string())),
    body: v.optional(v.unknown()),
  }),
  v.strictObject({ type: v.literal('reset-before') }),
  v.strictObject({ type: v.literal('reset-after') }),
  v.strictObject({
    type: v.literal('drop-sse-after'),
    events: v.pipe(v.number(), v.integer(), v.minValue(0)),
    how: v.optional(v.picklist(['end', 'reset']), 'end'),
  }),
  v.strictObject({ type: v.literal('expire-session') }),
  v.strictObject({ type: v.literal('malformed'), kind: v.picklist(['not-json', 'not-jsonrpc', 'sse-bad-data']) }),
  v.strictObject({ type: v.literal('oversized'), bytes: Count, as: v.optional(v.picklist(['json', 'sse']), 'json') }),
  v.strictObject({
    type: v.literal('gzip'),
    bytes: Count,
    as: v.optional(v.picklist(['json', 'sse', 'json-error']), 'json'),
  }),
  v.strictObject({
    type: v.literal('stall'),
    ms: v.optional(Millis),
    phase: v.optional(v.picklist(['before-headers', 'after-headers']), 'before-headers'),
  }),
  v.strictObject({ type: v.literal('hold-open'), commentEveryMs: v.optional(Count, 1000) }),
  v.strictObject({
    type: v.literal('refuse-and-stall'),
    status: v.optional(v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)), 500),
  }),
  v.strictObject({
    type: v.literal('redirect'),
    status: v.optional(v.picklist([301, 302, 303, 307, 308]), 307),
    location: v.optional(v.string()),
  }),
]);

const RuleSchema = v.strictObject({ match: v.optional(MatchSchema, {}), action: ActionSchema });

/** A fault scenario: the inner server's mode and the rules, tried in order for every MCP request. */
export const FaultScriptSchema = v.strictObject({
  inner: v.optional(v.picklist(['resumable', 'stateful', 'stateless']), 'resumable'),
  rules: v.optional(v.array(RuleSchema), []),
});

/** @typedef {v.InferOutput<typeof FaultScriptSchema>} FaultScript */
/** @typedef {v.InferOutput<typeof RuleSchema>} FaultRule */
/** @typedef {v.InferOutput<typeof ActionSchema>} FaultAction */

/**
 * What the fault handler knows about one MCP request before acting on it.
 * @typedef {object} RequestFacts
 * @property {string} httpMethod
 * @property {string | undefined} method JSON-RPC method, if the body is a request or notification
 * @property {string | number | undefined} id JSON-RPC id, if the body is a request
 * @property {string | undefined} tool `params.name` of a tools/call
 * @property {string | undefined} sessionId
 */

/**
 * Validates a script posted to the control API (valibot, at the edge).
 * @param {unknown} value
 * @returns {{ ok: true, script: FaultScript } | { ok: false, message: string }}
 */
export function parseFaultScript(value) {
  const result = v.safeParse(FaultScriptSchema, value);
  return result.success ? { ok: true, script: result.output } : { ok: false, message: v.summarize(result.issues) };
}

/**
 * The rule matcher of one scenario. Each rule counts the requests it matches
 * on its own (so `nth: 2` on `tools/call` is the second tools/call, whatever
 * other rules did); the first rule whose `times`/`nth` admit the request wins.
 * @param {FaultRule[]} rules
 */
export function createRuleMatcher(rules) {
  /** @type {number[]} */
  const matched = rules.map(() => 0);
  /** @type {number[]} */
  const applied = rules.map(() => 0);
  return {
    /**
     * @param {RequestFacts} facts
     * @returns {{ index: number, action: FaultAction } | undefined}
     */
    match(facts) {
      /** @type {{ index: number, action: FaultAction } | undefined} */
      let winner;
      rules.forEach((rule, index) => {
        if (!matches(rule.match, facts)) return;
        const count = (matched[index] ?? 0) + 1;
        matched[index] = count;
        const admitted =
          (rule.match.times === undefined || count <= rule.match.times) &&
          (rule.match.nth === undefined || count === rule.match.nth);
        if (admitted && winner === undefined) {
          applied[index] = (applied[index] ?? 0) + 1;
          winner = { index, action: rule.action };
        }
      });
      return winner;
    },
    /** How often each rule matched a request and how often it acted. */
    counts: () => rules.map((_, index) => ({ matched: matched[index] ?? 0, applied: applied[index] ?? 0 })),
  };
}

/**
 * @param {v.InferOutput<typeof MatchSchema>} match
 * @param {RequestFacts} facts
 */
function matches(match, facts) {
  return (
    (match.method === undefined || match.method === facts.method) &&
    (match.httpMethod === undefined || match.httpMethod === facts.httpMethod) &&
    (match.tool === undefined || match.tool === facts.tool) &&
    (match.session === undefined || match.session === (facts.sessionId !== undefined))
  );
}

import * as v from 'valibot';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ContentBlock } from '../../protocol/content.js';
import { isJsonObject } from '../../protocol/json.js';
import { EmptyResultSchema } from '../../protocol/ping.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ListToolsResultSchema,
  type ToolResult,
} from '../../protocol/tools.js';
import { messageOf } from '../../util/message-of.js';
import { page } from '../pagination.js';
import { protocolIssues } from '../rpc/protocol-issues.js';

/**
 * Result decoding: each method's result validated at the edge, then mapped to
 * what the caller gets. This file holds the shared parse-with-schema and the
 * decoders every program needs (tools, empty and raw results); those of
 * resources, prompts and completion are in `catalogue.ts`, which only the
 * catalogue module imports, so a program that never reads a resource never
 * downloads them.
 */

/**
 * A parser for one method's result: validates the shape at the edge, then maps it
 * to what the caller returns. A wrong shape, or a mapping that fails (say, bad
 * base64), rejects that one call with a ProtocolError naming the method.
 */
export function resultParser<S extends v.GenericSchema, T = v.InferOutput<S>>(
  method: string,
  schema: S,
  map?: (value: v.InferOutput<S>) => T,
): (raw: unknown) => T {
  return (raw) => {
    const parsed = v.safeParse(schema, raw);
    if (!parsed.success) {
      throw new ProtocolError(`${method}: invalid result: ${v.summarize(parsed.issues)}`, {
        issues: protocolIssues(parsed.issues),
        received: raw,
      });
    }
    if (!map) return parsed.output as T;
    try {
      return map(parsed.output);
    } catch (error) {
      throw new ProtocolError(`${method}: invalid result: ${messageOf(error)}`, { received: raw }, { cause: error });
    }
  };
}

/** A content part or resource body as it came off the wire. */
export type Part = Readonly<Record<string, unknown>>;

/** The string at `key`, if that is what it holds. */
export const str = (part: Part, key: string): string | undefined => {
  const value = part[key];
  return typeof value === 'string' ? value : undefined;
};

/** Keeps every part verbatim and in order, and every other member; `text` joins the text parts. */
export function toToolResult(result: CallToolResult): ToolResult {
  const content = result.content as readonly ContentBlock[];
  let text = '';
  for (const part of content as readonly Part[]) {
    if (part.type === 'text') text += str(part, 'text') ?? '';
  }
  const tool: Record<string, unknown> = { content, text, isError: result.isError === true };
  // Every other member the server sent is kept as it came (fields of later revisions and extensions): a
  // client in between, such as `mcp bridge`, hands on the whole result. Copied key by key: spreading the
  // parsed object into a literal cost some 5 µs per call in the 64-in-flight benchmark. A `__proto__` member
  // (JSON.parse makes it an own one) is not copied: assigned, it would set the result's prototype.
  for (const key in result) {
    if (key !== '__proto__' && !Object.hasOwn(tool, key)) tool[key] = result[key as keyof CallToolResult];
  }
  return tool as unknown as ToolResult;
}

/** An empty result (`ping`, `logging/setLevel`, `resources/subscribe`): nothing for the caller. */
export const parseEmpty = resultParser('result', EmptyResultSchema, () => undefined);
/** A `tools/call` result checked against the whole schema; `parseCallTool` is the same, with a fast path. */
export const parseCallToolResult = resultParser('tools/call', CallToolResultSchema, toToolResult);

/**
 * Whether `raw` is a tool result of text parts and nothing else the schema
 * looks into (`_meta`, a `resultType` other than `"complete"`, annotations), the shape nearly every call
 * returns. A profile of 64 calls in flight found the schema's generic walk the
 * client's largest cost per call; this check takes a fraction of it. It holds
 * only for values the schema passes unchanged, so the caller gets the same
 * result either way (test/property/call-tool-fast-path.test.ts proves
 * the two equal on arbitrary values).
 */
function isTextOnly(raw: unknown): raw is CallToolResult {
  // `resultType: "complete"` is what every 2026-07-28 result carries: a value the schema takes as it is.
  if (!isJsonObject(raw) || raw._meta !== undefined) return false;
  if (raw.resultType !== undefined && raw.resultType !== 'complete') return false;
  const { content, isError } = raw;
  if ((isError !== undefined && typeof isError !== 'boolean') || !Array.isArray(content)) return false;
  // for-of, not every(): a hole in a sparse array is read as undefined and refused, as the schema does.
  for (const part of content) {
    if (!isJsonObject(part) || part.type !== 'text' || typeof part.text !== 'string') return false;
    if (part.annotations !== undefined || part._meta !== undefined) return false;
  }
  return true;
}

/** A `tools/call` result as the caller gets it (`ToolResult`). */
export const parseCallTool = (raw: unknown): ToolResult =>
  isTextOnly(raw) ? toToolResult(raw) : parseCallToolResult(raw);
/** One page of `tools/list`. */
export const parseTools = resultParser('tools/list', ListToolsResultSchema, (r) => page(r.tools, r.nextCursor));
/** Any result object, kept whole (`Client.request`). */
export const parseObject = (method: string) => resultParser(method, v.looseObject({}));

/** A listen stream's final result (the server ended it); its content does not matter. */
export const parseAny = (raw: unknown): unknown => raw;

import * as v from 'valibot';
import { ProtocolError } from '../errors/protocol-error.js';
import { protocolIssues } from '../protocol/issues.js';

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
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProtocolError(`${method}: invalid result: ${reason}`, { received: raw }, { cause: error });
    }
  };
}

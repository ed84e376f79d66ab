import * as v from 'valibot';
import { ProtocolError } from '../errors/protocol-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { InputRequiredResultSchema } from '../protocol/mrtr.js';
import type { AnswerRequest } from './request-answerer.js';

/** An `input_required` result, validated. */
export type InputRequired = v.InferOutput<typeof InputRequiredResultSchema>;

/**
 * Validates an `input_required` result (2026-07-28 §MRTR). The modern era loads
 * this module on the first such result, so servers that never ask for input
 * cost a program nothing here.
 */
export function inputRequired(method: string, raw: unknown): InputRequired {
  const parsed = v.safeParse(InputRequiredResultSchema, raw);
  if (!parsed.success) {
    throw new ProtocolError(`${method}: invalid input_required result: ${v.summarize(parsed.issues)}`, parsed.issues);
  }
  return parsed.output;
}

/**
 * The params the retry adds: an answer to every input request, and the opaque
 * `requestState` echoed exactly as received, never read (2026-07-28 §MRTR).
 */
export async function retryParams(
  answer: AnswerRequest,
  method: string,
  { inputRequests, requestState }: InputRequired,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  return {
    ...(inputRequests && { inputResponses: await answerInputRequests(answer, method, inputRequests, signal) }),
    ...(requestState !== undefined && { requestState }),
  };
}

/**
 * Answers every input request of one round with the handlers the legacy era
 * uses for real server requests. Elicitation with no handler is declined — an
 * answer the server understands. A request nothing can answer (sampling or
 * roots we never declared, an unknown method) fails the call: the protocol has
 * no error slot in `inputResponses`.
 */
async function answerInputRequests(
  answer: AnswerRequest,
  method: string,
  inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(inputRequests).map(async ([key, input]) => {
      try {
        return [key, await answer(input.method, input.params ?? {}, signal)] as const;
      } catch (error) {
        if (error instanceof RpcError) {
          throw new ProtocolError(
            `${method}: the server asked for ${input.method} (input ${JSON.stringify(key)}), which this client cannot answer: ${error.rpcMessage}`,
            undefined,
            { cause: error },
          );
        }
        throw error;
      }
    }),
  );
  return Object.fromEntries(entries);
}

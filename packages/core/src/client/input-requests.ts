import { ProtocolError } from '../errors/protocol-error.js';
import { RpcError } from '../errors/rpc-error.js';
import type { ServerRequests } from './server-requests.js';

/**
 * Answers every input request of one `input_required` round (2026-07-28 §MRTR)
 * with the handlers the legacy era uses for real server requests. Elicitation
 * with no handler is declined — an answer the server understands. A request
 * nothing can answer (sampling or roots we never declared, an unknown method)
 * fails the call: the protocol has no error slot in `inputResponses`.
 */
export async function answerInputRequests(
  requests: ServerRequests,
  method: string,
  inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(inputRequests).map(async ([key, input]) => {
      try {
        return [key, await requests.handle(input.method, input.params ?? {}, signal)] as const;
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

/** One request as the transport handed it to `fetch`, and what came back. */
export interface FetchCall {
  readonly httpMethod: string;
  readonly url: URL;
  readonly headers: Headers;
  /** The JSON-RPC method of a POSTed message, if any. */
  readonly rpcMethod: string | undefined;
  /** The POSTed JSON-RPC message, parsed. */
  readonly message: Readonly<Record<string, unknown>> | undefined;
  readonly signal: AbortSignal | undefined;
  /** `performance.now()` when the transport called fetch. */
  readonly startedAt: number;
  status?: number;
  contentType?: string | null;
  error?: unknown;
}

export interface CountingFetch {
  readonly fetch: typeof fetch;
  readonly calls: FetchCall[];
}

/**
 * A `fetch` that delegates to the real one and records each call: to observe
 * what the transport sent (timing, headers, signals) where no server stats exist.
 * It changes nothing on the wire.
 */
export function countingFetch(): CountingFetch {
  const calls: FetchCall[] = [];
  const counting = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const message = parse(typeof init?.body === 'string' ? init.body : undefined);
    const call: FetchCall = {
      httpMethod: init?.method ?? 'GET',
      url: new URL(input instanceof Request ? input.url : input),
      headers: new Headers(init?.headers),
      rpcMethod: typeof message?.method === 'string' ? message.method : undefined,
      message,
      signal: init?.signal ?? undefined,
      startedAt: performance.now(),
    };
    calls.push(call);
    try {
      const response = await fetch(input, init);
      call.status = response.status;
      call.contentType = response.headers.get('content-type');
      return response;
    } catch (error) {
      call.error = error;
      throw error;
    }
  };
  return { fetch: counting as typeof fetch, calls };
}

function parse(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    const message: unknown = JSON.parse(body);
    return typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

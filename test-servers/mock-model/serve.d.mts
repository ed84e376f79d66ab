/**
 * Types of the mock model (serve.mjs), for TypeScript tests anywhere in the
 * repository. test-servers/mock-model/README.md describes the behaviour.
 */

/** What a rule looks at. Every field given must hold; none given matches every request. */
export interface MockWhen {
  /** Role of the request's last message. */
  last?: 'system' | 'user' | 'assistant' | 'tool';
  /** A substring of the last user message's text. */
  userSays?: string;
  /** A substring of the tool results since the last assistant message. */
  toolSays?: string;
}

/** One rule: a condition, an optional delay (0–60,000 ms) and exactly one of `call`, `reply`, `error`. */
export type MockRule = { when?: MockWhen; delayMs?: number } & (
  | { call: Array<{ tool: string; args?: Record<string, unknown> }> }
  | { reply: string }
  | { error: { status: number; message: string } }
);

/** Rules in order; the first whose `when` holds answers. */
export type MockScript = MockRule[];

/** The OpenAI Chat Completions request body, as far as tests read it. */
export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<{
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string | null | Array<{ type: string; text?: string }>;
    tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{
    type: 'function';
    function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
  }>;
  tool_choice?: unknown;
  [key: string]: unknown;
}

export interface RecordedRequest {
  path: string;
  /** The `Authorization` header as sent. */
  authorization: string | null;
  /** The parsed body; null when it could not be read (too large, not JSON). */
  body: ChatRequestBody | null;
  /** The status the mock answered with. */
  status: number;
  /** The error message it answered with. */
  error?: string;
}

export interface MockModelOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to DEFAULT_SCRIPT: quote tool results after a tool turn, else echo the user. */
  script?: MockScript;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** Request bodies (chat and `POST /mock/script`) over this many bytes get 413 (default 4 MiB). */
  maxBodyBytes?: number;
}

export interface MockModel {
  /** The base URL for `createOpenAICompatible({ baseURL })`: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** `http://127.0.0.1:<port>`, where the `/mock/*` control paths live. */
  origin: string;
  /** Every chat request seen, in order (live). */
  requests: RecordedRequest[];
  /** Replaces the script; throws a TypeError for an invalid one. */
  setScript(script: MockScript): void;
  close(): Promise<void>;
}

export function startMockModel(options?: MockModelOptions): Promise<MockModel>;

/** One resource body; exactly one of `text` and `blob` is set. */
export interface ResourceContent {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  /** The decoded bytes of a base64 `blob`. */
  readonly blob?: Uint8Array;
  readonly _meta?: Record<string, unknown>;
}

/** What `readResource` returns. */
export interface ReadResourceResult {
  readonly contents: readonly ResourceContent[];
  readonly _meta?: Record<string, unknown>;
}

/** One content part of a prompt message; which fields are set depends on `type`. */
export interface PromptPart {
  /** Always set; unknown kinds keep their type and `raw`, with no error. */
  readonly type: string;
  readonly text?: string;
  /** Decoded bytes of an `image` or `audio` part. */
  readonly data?: Uint8Array;
  readonly mimeType?: string;
  /** The resource of a `resource` part. */
  readonly resource?: ResourceContent;
  /** The URI of a `resource_link` part. */
  readonly uri?: string;
  /** The part as the server sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface PromptMessageResult {
  readonly role: string;
  readonly content: readonly PromptPart[];
}

/** What `getPrompt` returns. */
export interface PromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessageResult[];
  readonly _meta?: Record<string, unknown>;
}

/** What `complete` returns. */
export interface Completion {
  readonly values: readonly string[];
  /** The server's total count of matches, when it gave one. */
  readonly total?: number;
  readonly hasMore: boolean;
}

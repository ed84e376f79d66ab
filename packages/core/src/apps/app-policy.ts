import type { ContentBlock } from '../protocol/content.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Tool } from '../protocol/tool-definition.js';
import type { AppDisplayMode } from './host-context.js';

/** A `tools/call` a view asked for, after the visibility check passed. */
export interface AppToolCallRequest {
  /** The name of the tool the view wants to call. */
  readonly name: string;
  /** The arguments the view passes (`{}` when it sent none). */
  readonly arguments: Record<string, unknown>;
  /** The tool's definition, as its server lists it. */
  readonly tool: Tool;
}

/** A `ui/message` from a view: content for the chat, as the user's. */
export interface AppMessage {
  /** Always `'user'`: a view speaks for the user, never as the assistant. */
  readonly role: 'user';
  /** Always an array: a view that sent one block gets it wrapped. */
  readonly content: ContentBlock[];
}

/** A `ui/update-model-context` from a view: what the model should see next turn (each one replaces the last). */
export interface AppModelContext {
  /** Content blocks for the model, when the view sent any. */
  readonly content?: ContentBlock[];
  /** A JSON object for the model, when the view sent one. */
  readonly structuredContent?: Record<string, unknown>;
}

/** A `notifications/message` from a view. */
export interface AppLogEntry {
  /** The message's severity. */
  readonly level: LoggingLevel;
  /** The name of the view's logger that sent it, when it gave one. */
  readonly logger?: string;
  /** The message: any JSON value the view sent. */
  readonly data: unknown;
}

/** Browser features a view may be granted (the inner iframe's `allow`), each only when it declared it too. */
export interface AppPermissions {
  /** `true` grants camera access (the `camera` feature). */
  readonly camera?: boolean;
  /** `true` grants microphone access (the `microphone` feature). */
  readonly microphone?: boolean;
  /** `true` grants the user's location (the `geolocation` feature). */
  readonly geolocation?: boolean;
  /** `true` grants writing to the clipboard (the `clipboard-write` feature). */
  readonly clipboardWrite?: boolean;
}

/**
 * What a view may ask of the host. Each member has a safe default when absent:
 * the view is third-party code, so anything that reaches the user, the chat or
 * the model needs the app to say yes. A hook that throws or rejects refuses.
 */
export interface AppPolicy {
  /**
   * Asked before each `tools/call` to a tool whose visibility includes `"app"`
   * (tools without it are refused before this). Absent: allowed, as the spec
   * lets a view call its own server's app tools.
   */
  readonly confirmToolCall?: (call: AppToolCallRequest) => boolean | Promise<boolean>;
  /** Asked before each `resources/read` of the view's own server. Absent: allowed. */
  readonly confirmResourceRead?: (uri: string) => boolean | Promise<boolean>;
  /** Takes a `ui/message` into the chat; throws (or rejects) to refuse it. Absent: refused. */
  readonly onMessage?: (message: AppMessage) => void | Promise<void>;
  /**
   * Opens an https link the view asked for, or returns false. Only `https:`
   * URLs reach it. Absent: refused.
   */
  readonly openLink?: (url: URL) => boolean | Promise<boolean>;
  /**
   * Switches the display mode the view asked for (one the host and the view both
   * list), returning the mode now in effect. Absent: the current mode stays.
   */
  readonly requestDisplayMode?: (mode: AppDisplayMode) => AppDisplayMode | Promise<AppDisplayMode>;
  /** Keeps what the view wants the model to see next turn; throws (or rejects) to refuse it. Absent: refused. */
  readonly updateModelContext?: (context: AppModelContext) => void | Promise<void>;
  /** Receives the view's log messages. Absent: dropped. */
  readonly onLog?: (entry: AppLogEntry) => void;
  /** Browser features the app grants a view that declares them. Absent: none. */
  readonly permissions?: AppPermissions;
}

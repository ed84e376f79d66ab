import type { ElicitRequestParams } from '../protocol/elicitation.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/sampling.js';

/**
 * A server request waiting for the user: an elicitation form (or URL) or a
 * sampling request, in either era. The UI answers it once with `respond`,
 * `decline` or `cancel`; `signal` aborts when the server or the call gives it
 * up, and the item leaves the snapshot then. Items are frozen.
 */
export type PendingRequest = PendingElicitation | PendingSampling;

interface PendingBase {
  /** Unique within the connection, for a UI's key. */
  readonly id: string;
  /**
   * Aborts when the server cancels the request, the call it belongs to is
   * aborted or times out (2026-07-28 input requests), or the queue closes. The
   * item has left the list by then; answering it does nothing.
   */
  readonly signal: AbortSignal;
  /**
   * Refuses the request: elicitation `decline`; for sampling, the error the
   * server reads as the user's refusal (-1, "User rejected sampling request").
   * True when this was the answer sent; false when the request was already
   * answered or withdrawn, so a double click is harmless.
   */
  decline(): boolean;
  /**
   * Dismisses it without an answer: elicitation `cancel`; for sampling, the same
   * refusal as `decline` (sampling has no cancel). True or false as for `decline`.
   */
  cancel(): boolean;
}

/** An `elicitation/create` waiting for the user's answer. */
export interface PendingElicitation extends PendingBase {
  /** Tells the two kinds apart. */
  readonly kind: 'elicitation';
  /** The request as the server sent it: the message, and the form's schema or the URL. */
  readonly params: ElicitRequestParams;
  /**
   * For a URL-mode elicitation with an `elicitationId` (2025-11-25): settles when
   * the server says the user finished at the URL. It may never settle.
   */
  readonly completed?: Promise<void>;
  /**
   * Set when the elicitation comes from a request the server refused with -32042
   * (`tools/call`, …): that request is sent again once this is accepted, so
   * accept after the user is done at the URL, not at consent.
   */
  readonly refusedRequest?: string;
  /**
   * Accepts: with the form's content (form mode), which must fit the
   * `requestedSchema`, or with none (URL mode). Content that does not fit
   * throws an `McpError` naming the field, and the request stays waiting, so
   * the form can be corrected. True when this was the answer sent; false when
   * the request was already answered or withdrawn.
   */
  respond(content?: Record<string, unknown>): boolean;
}

/** A `sampling/createMessage` waiting for the user's approval and the app's model. */
export interface PendingSampling extends PendingBase {
  /** Tells the two kinds apart. */
  readonly kind: 'sampling';
  /** The request as the server sent it: the messages, and the preferences and limits for the model. */
  readonly params: CreateMessageRequestParams;
  /**
   * Answers with the model's result. One that is not a `CreateMessageResult`
   * throws an `McpError`, and the request stays waiting. True when this was the
   * answer sent; false when the request was already answered or withdrawn.
   */
  respond(result: CreateMessageResult): boolean;
}

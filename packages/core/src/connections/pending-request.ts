import type { ElicitRequestParams } from '../protocol/elicitation.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/sampling.js';

/**
 * A server request waiting for the user: an elicitation form (or URL) or a
 * sampling request, in either era. The UI answers it once with `respond`,
 * `decline` or `cancel`; `signal` aborts when the server or the call gives it
 * up, and the item leaves the snapshot then.
 */
export type PendingRequest = PendingElicitation | PendingSampling;

interface PendingBase {
  /** Unique within the connection, for a UI's key. */
  readonly id: string;
  /** Aborts when the server cancels, the call ends or the connection closes. */
  readonly signal: AbortSignal;
  /** Refuses the request (elicitation `decline`; sampling: an error the server sees as the user's refusal). */
  decline(): void;
  /** Dismisses it without an answer (elicitation `cancel`). */
  cancel(): void;
}

/** An `elicitation/create` waiting for the user's answer. */
export interface PendingElicitation extends PendingBase {
  readonly kind: 'elicitation';
  readonly params: ElicitRequestParams;
  /** Accepts with the form's content (form mode) or none (URL mode). */
  respond(content?: Record<string, unknown>): void;
}

/** A `sampling/createMessage` waiting for the user's approval and the app's model. */
export interface PendingSampling extends PendingBase {
  readonly kind: 'sampling';
  readonly params: CreateMessageRequestParams;
  /** Answers with the model's result. */
  respond(result: CreateMessageResult): void;
}

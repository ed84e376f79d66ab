import type { ClientOptions, Root } from '../../../src/index.js';
import type { CreateMessageRequestParams, ElicitRequestParams } from '../../../src/protocol/index.js';

/** The roots the handlers answer with. */
export declare const ROOTS: readonly Root[];

/** What the handlers of `recordingHandlers` were asked, in order. */
export interface Asked {
  readonly sampling: CreateMessageRequestParams[];
  readonly elicitation: ElicitRequestParams[];
  roots: number;
}

/**
 * One set of sampling, elicitation and roots handlers, recording what they were
 * asked: the same functions answer a legacy server's requests and a modern
 * server's input requests.
 */
export declare function recordingHandlers(): { asked: Asked; options: ClientOptions };

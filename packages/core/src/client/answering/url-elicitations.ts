import * as v from 'valibot';
import { LimitError } from '../../errors/limit-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { UrlElicitationRequiredError } from '../../errors/url-elicitation-required-error.js';
import { UrlElicitationRequiredErrorDataSchema } from '../../protocol/elicitation.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { protocolIssues } from '../rpc/protocol-issues.js';
import type { DispatchPool } from './dispatch-pool.js';
import { inSlot, type Round, stoppedBy } from './input-requests.js';

/** The round a refusal's elicitations are answered in, and the method of the request refused. */
export interface RefusalRound extends Round {
  readonly refusedRequest: string;
}

/**
 * A request the server refused with -32042 until the user completes URL flows
 * (2025-11-25 client/elicitation § URL Elicitation Required Error).
 *
 * With a URL-mode elicitation handler (`elicitation: { handler, url: true }`),
 * each elicitation of the refusal's `data` goes to it in turn, under the same
 * rules as a server's own URL-mode request. Only `https:` URLs reach it, and
 * `http:` ones on loopback; the others are declined for the app, with
 * `onWarning`. When every one was accepted and the handler has resolved, the
 * request is sent once more with `retry`, and its outcome is the call's.
 *
 * Anything else rejects with `UrlElicitationRequiredError` carrying the
 * elicitations. That is the case without a URL handler, however many
 * elicitations there are: `limits.maxInputRequests` bounds only what the user
 * is asked, so with a URL handler more than that is a `LimitError`. It is also
 * the case when one is not accepted, when a handler throws (its error is the
 * `cause`), and when the retry is refused with -32042 again. There is never a
 * second round, so a server cannot loop the user.
 *
 * The handlers run in the client's handler slots under the call's own bounds:
 * its signal, timeout and cap, which the retry shares too. Calls under way
 * refused for the same `elicitationId` ask the user once.
 */
export async function afterUrlElicitations<T>(
  refusal: RpcError,
  round: RefusalRound,
  urlMode: boolean,
  retry: () => Promise<T>,
): Promise<T> {
  // limits.maxInputRequests bounds what the user is asked; with no URL handler no one is, and the app gets them all.
  const required = urlElicitationRequired(refusal, urlMode ? round.maxInputRequests : Number.POSITIVE_INFINITY);
  if (!urlMode || required.elicitations.length === 0) throw required;
  const consent = await round.run((signal) => consentToAll(required, round, signal));
  if (consent !== true) throw new UrlElicitationRequiredError(refusal, required.elicitations, consent);
  try {
    return await retry();
  } catch (error) {
    if (error instanceof RpcError && error.code === ErrorCode.UrlElicitationRequired) {
      throw urlElicitationRequired(error, round.maxInputRequests);
    }
    throw error;
  }
}

/**
 * A -32042 read: the typed error carrying its elicitations. More than
 * `maxElicitations` of them (limits.maxInputRequests) is a `LimitError` before
 * anything is validated; `data` of the wrong shape is a `ProtocolError`; the
 * refusal is the cause of both.
 */
function urlElicitationRequired(refusal: RpcError, maxElicitations: number): UrlElicitationRequiredError {
  const what = refusal.method ?? 'request';
  const listed = (refusal.data as { elicitations?: unknown } | null | undefined)?.elicitations;
  const count = Array.isArray(listed) ? listed.length : 0;
  if (count > maxElicitations) {
    throw new LimitError(
      'limits.maxInputRequests',
      maxElicitations,
      `${what}: the server asked for ${count} URL elicitations at once, more than ${maxElicitations}`,
      { cause: refusal },
    );
  }
  const parsed = v.safeParse(UrlElicitationRequiredErrorDataSchema, refusal.data);
  if (!parsed.success) {
    throw new ProtocolError(
      `${what}: invalid URL elicitation required error (${ErrorCode.UrlElicitationRequired}): ${v.summarize(parsed.issues)}`,
      { issues: protocolIssues(parsed.issues), received: refusal.data },
      { cause: refusal },
    );
  }
  return new UrlElicitationRequiredError(refusal, parsed.output.elicitations);
}

/**
 * Asks the app's handler about each elicitation in turn, one consent at a time,
 * stopping at the first not accepted. `true` when all were; else what to give
 * the typed error: nothing, or a handler's failure as its `cause`. The call's
 * end (abort, timeout, close) rejects with its reason instead.
 */
async function consentToAll(
  required: UrlElicitationRequiredError,
  round: RefusalRound,
  signal: AbortSignal,
): Promise<true | ErrorOptions | undefined> {
  const stopped = stoppedBy(signal);
  for (const elicitation of required.elicitations) {
    let result: Record<string, unknown>;
    try {
      result = await consentTo(elicitation, round, signal, stopped);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { cause: error };
    }
    if (result.action !== 'accept') return undefined;
  }
  return true;
}

/** A consent being asked: its outcome, and the signal of the call asking (whose end ends the question). */
interface Asking {
  readonly answer: Promise<Record<string, unknown>>;
  readonly signal: AbortSignal;
}

/** The consents being asked in each client (keyed by its handler slots), by `elicitationId`. */
const asking = new WeakMap<DispatchPool, Map<string, Asking>>();

/**
 * The user's answer to one elicitation. Calls under way refused for the same
 * `elicitationId` share one question: the user completes a flow once, and each
 * call waits (under its own bounds) for that answer. Should the asking call end
 * first, its question ends with it, and a call still waiting asks anew.
 */
async function consentTo(
  elicitation: UrlElicitationRequiredError['elicitations'][number],
  round: RefusalRound,
  signal: AbortSignal,
  stopped: Promise<never>,
): Promise<Record<string, unknown>> {
  const ask = () =>
    inSlot(round.pool, () => round.answer('elicitation/create', elicitation, signal, round.refusedRequest), stopped);
  const id = elicitation.elicitationId;
  if (id === undefined) return ask(); // never so: -32042's data was checked to carry one
  const questions = asking.get(round.pool) ?? new Map<string, Asking>();
  asking.set(round.pool, questions);
  const shared = questions.get(id);
  if (shared) {
    try {
      return await Promise.race([shared.answer, stopped]);
    } catch (error) {
      if (signal.aborted || !shared.signal.aborted) throw error;
      if (questions.get(id) === shared) questions.delete(id);
      return consentTo(elicitation, round, signal, stopped);
    }
  }
  const answer = ask();
  const mine: Asking = { answer, signal };
  questions.set(id, mine);
  try {
    return await answer;
  } finally {
    if (questions.get(id) === mine) questions.delete(id);
  }
}

import * as v from 'valibot';
import { resultEntries } from './result.js';

/**
 * A result that carries nothing: the answer to `ping` (legacy), `logging/setLevel`,
 * `resources/subscribe` and `unsubscribe`, and the client's answer to a server
 * `ping`. Extra keys are kept, never an error.
 */
export const EmptyResultSchema = v.looseObject({ ...resultEntries });
/** The output type of {@link EmptyResultSchema}: a value it parsed. */
export type EmptyResult = v.InferOutput<typeof EmptyResultSchema>;

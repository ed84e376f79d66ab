/**
 * One set of sampling, elicitation and roots handlers that record what they
 * were asked: the same functions answer a legacy server's requests and a
 * 2026-07-28 server's input requests. Plain ESM (types in
 * recording-handlers.d.ts), so the unit tests and the runtime scenarios
 * (runtimes/scenarios.js, in every runtime) share them.
 */

/** The roots the handlers answer with. */
export const ROOTS = [{ uri: 'file:///workspace', name: 'workspace' }];

/** Fresh handlers (as ClientOptions) and the record of what they were asked, in order. */
export function recordingHandlers() {
  const asked = { sampling: [], elicitation: [], roots: 0 };
  return {
    asked,
    options: {
      sampling: (request) => {
        asked.sampling.push(request);
        const first = request.messages[0]?.content;
        const text = first && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
        return { role: 'assistant', content: { type: 'text', text: `sampled: ${text}` }, model: 'test-model' };
      },
      elicitation: (request) => {
        asked.elicitation.push(request);
        // The reference server's multi-round tools ask for an "Answer …"; the others for a name.
        const key = request.message.startsWith('Answer') ? 'answer' : 'name';
        return { action: 'accept', content: { [key]: `Ada ${asked.elicitation.length}` } };
      },
      roots: () => {
        asked.roots++;
        return ROOTS;
      },
    },
  };
}

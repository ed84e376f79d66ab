/**
 * The hook's pending list: each elicitation with a name field and Submit, Decline and Cancel; each
 * sampling request with its messages and Approve (a fixed reply, no model here) and Decline.
 */
import type { PendingRequest } from '@mcp/core/connections';
import { type FormEvent, useState } from 'react';

/** What an approved sampling request is answered with. */
export const SAMPLED_TEXT = 'A reply approved in the page';

export function PendingRequests({ pending }: { pending: readonly PendingRequest[] }) {
  return (
    <ul data-testid="pending">
      {pending.map((request) =>
        request.kind === 'elicitation' ? (
          <Elicitation key={request.id} request={request} />
        ) : (
          <li key={request.id} data-testid="sampling">
            <span data-testid="message">
              {request.params.messages
                .map((message) => ('text' in message.content ? message.content.text : ''))
                .join(' ')}
            </span>
            <button
              type="button"
              onClick={() =>
                request.respond({ role: 'assistant', content: { type: 'text', text: SAMPLED_TEXT }, model: 'e2e' })
              }
            >
              Approve
            </button>
            <button type="button" onClick={() => request.decline()}>
              Decline
            </button>
          </li>
        ),
      )}
    </ul>
  );
}

function Elicitation({ request }: { request: Extract<PendingRequest, { kind: 'elicitation' }> }) {
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.respond({ name });
  };
  return (
    <li data-testid="elicitation">
      <form aria-label="The server asks" onSubmit={submit}>
        <span data-testid="message">{request.params.message}</span>
        <input aria-label="name" value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit">Submit</button>
        <button type="button" onClick={() => request.decline()}>
          Decline
        </button>
        <button type="button" onClick={() => request.cancel()}>
          Cancel
        </button>
      </form>
    </li>
  );
}

import type { ElicitRequestFormParams } from '@mcp/core';
import { assertBrowsable } from '@mcp/core/browser';
import type { PendingElicitation } from '@mcp/core/connections';
import { useMcpServers } from '@mcp/react';
import { ElicitationForm } from './ElicitationForm.js';
import type { ChosenModel } from './model.js';
import { SamplingRequest } from './SamplingRequest.js';
import { describeError } from './text.js';

/**
 * Every server request waiting for the user, oldest first per server: an
 * elicitation as a form (or, in URL mode, a link to follow), a sampling request
 * for approval. Each leaves when it is answered, or when its server gives it up.
 */
export function PendingRequests({ model }: { model: () => ChosenModel }) {
  const { servers } = useMcpServers();
  return servers.flatMap(({ name, pending }) =>
    pending.map((request) => {
      const key = `${name}:${request.id}`;
      if (request.kind === 'sampling')
        return <SamplingRequest key={key} server={name} request={request} model={model} />;
      if (request.params.mode === 'url') return <UrlElicitation key={key} server={name} request={request} />;
      return (
        <ElicitationForm
          key={key}
          server={name}
          request={request as PendingElicitation & { params: ElicitRequestFormParams }}
        />
      );
    }),
  );
}

/**
 * A URL-mode elicitation: the server asks the user to visit a page of its own
 * (to sign in to a third party, say). The link is offered only when the URL is
 * one a browser may open safely (https, or http on this machine).
 */
function UrlElicitation({ server, request }: { server: string; request: PendingElicitation }) {
  const params = request.params as { message: string; url: string };
  let link: React.ReactNode;
  try {
    const url = new URL(params.url);
    assertBrowsable(url);
    link = (
      <a href={url.href} target="_blank" rel="noopener noreferrer">
        {url.origin}
      </a>
    );
  } catch (error) {
    link = <small role="alert">{describeError(error)}</small>;
  }
  return (
    <section className="entry elicitation" aria-label={`${server} asks you to visit a page`}>
      <h3>{server} asks you to visit a page</h3>
      <p>{params.message}</p>
      <p>{link}</p>
      <div className="actions">
        <button type="button" onClick={() => request.respond()}>
          Done
        </button>
        <button type="button" onClick={() => request.decline()}>
          Decline
        </button>
      </div>
    </section>
  );
}

import type { ElicitRequestFormParams } from '@mcp/core';
import type { PendingRequest, ServersSnapshot } from '@mcp/core/connections';
import type { LanguageModel } from 'ai';
import { el, transcript } from './dom.js';
import { askUser } from './elicitation-form.js';
import { approveSampling } from './sampling.js';

/**
 * Shows each server request that comes to wait for the user (each server's
 * `snapshot.pending`) once, in the transcript: an elicitation as a form, a
 * sampling request for approval. Call it with every new snapshot of the set.
 */
export function pendingRequests(model: () => { model: LanguageModel; id: string }) {
  const shown = new WeakSet<PendingRequest>();
  return (snapshot: ServersSnapshot): void => {
    for (const server of snapshot.servers) {
      for (const request of server.pending) {
        if (shown.has(request)) continue;
        shown.add(request);
        if (request.kind === 'sampling') approveSampling(request, server.name, model);
        else if (request.params.mode !== 'url') {
          askUser(request as typeof request & { params: ElicitRequestFormParams }, server.name);
        } else {
          // This example opens no links for servers (see README). Declined after this render: the answer
          // changes the snapshot, whose listeners must not run again inside this one.
          queueMicrotask(() => request.decline());
          transcript.add(el('p', { class: 'entry note' }, `${server.name} asked to open a web page; declined.`));
        }
      }
    }
  };
}

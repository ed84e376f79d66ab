/**
 * A 2026-07-28 reference server (the v2 SDK's `createMcpHandler`, as `/v2`
 * serves it) whose `subscriptions/listen` requests for resources a test can
 * steer, to see what the bridge does with a subscription the remote never
 * agrees to: `pass` (the SDK answers), `narrow` (the SDK gets the request
 * without `resourceSubscriptions`, so it acknowledges a filter without the
 * URI), `silent` (an event stream that never says anything); the listen
 * request for list changes is either answered or left silent. The params of
 * each `tools/call` are kept. Every listen
 * request it gets is counted, and each listen stream it holds open.
 */
import { createServer } from 'node:http';
// @ts-expect-error test-servers is plain JS without declarations
import { toNodeListener } from '../../../../test-servers/http/node-adapter.mjs';
import {
  createMcpHandler,
  InMemoryServerEventBus,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/index.mjs';
// @ts-expect-error test-servers is plain JS without declarations
import { createModernHub } from '../../../../test-servers/reference/modern-hub.mjs';
// @ts-expect-error test-servers is plain JS without declarations
import { createV2Server } from '../../../../test-servers/reference/v2-server.mjs';

/** The part of a `subscriptions/listen` request this server looks at. */
interface ListenRequest {
  method?: string;
  params?: {
    notifications?: { resourceSubscriptions?: string[]; resourcesListChanged?: boolean };
    _meta?: Record<string, unknown>;
  };
}

export type ListenMode = 'pass' | 'narrow' | 'silent';

export async function startListenServer(options: { maxSubscriptions?: number } = {}) {
  const bus = new InMemoryServerEventBus();
  const hub = createModernHub(
    {},
    {
      toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
      resourceUpdated: (uri: string) => bus.publish({ kind: 'resource_updated', uri }),
    },
  );
  const handler = createMcpHandler(() => createV2Server({}, { era: 'modern', hub }), {
    legacy: 'reject',
    bus,
    ...(options.maxSubscriptions !== undefined && { maxSubscriptions: options.maxSubscriptions }),
  });
  let mode: ListenMode = 'pass';
  let listChangesMode: 'pass' | 'silent' = 'pass';
  /** Listen requests for resources, as received. */
  const resourceListens: string[][] = [];
  /** The params of every tools/call received. */
  const calls: NonNullable<ListenRequest['params']>[] = [];
  /** tools/call answers the client stopped reading before their end: calls it gave up on. */
  let callsLeft = 0;
  /** Listen streams (any filter) open now. */
  let open = 0;
  const steered = async (request: Request): Promise<Response> => {
    const body = request.method === 'POST' ? ((await request.clone().json()) as ListenRequest) : undefined;
    if (body?.method === 'tools/call') {
      calls.push(body.params ?? {});
      return tracked(await handler.fetch(request), (early) => {
        if (early) callsLeft++;
      });
    }
    if (body?.method !== 'subscriptions/listen') return handler.fetch(request);
    const notifications = body.params?.notifications ?? {};
    const uris = notifications.resourceSubscriptions;
    if (uris) resourceListens.push(uris);
    let answer: Response;
    if ((uris && mode === 'silent') || (!uris && listChangesMode === 'silent')) {
      answer = new Response(new ReadableStream({ start() {} }), { headers: { 'content-type': 'text/event-stream' } });
    } else if (uris && mode === 'narrow') {
      delete notifications.resourceSubscriptions;
      notifications.resourcesListChanged = true;
      answer = await handler.fetch(new Request(request, { body: JSON.stringify(body) }));
    } else answer = await handler.fetch(request);
    open++;
    return tracked(answer, () => open--);
  };
  const server = createServer(toNodeListener(steered));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    /** How the next resource listen requests are answered. */
    setMode(next: ListenMode) {
      mode = next;
    },
    /** Whether the listen requests for list changes are answered ('pass') or left silent. */
    setListChangesMode(next: 'pass' | 'silent') {
      listChangesMode = next;
    },
    calls: () => calls,
    /** How many tools/call answer streams the client closed before their end. */
    callsLeft: () => callsLeft,
    resourceListens: () => resourceListens.length,
    openStreams: () => open,
    /** A resource changed: `notifications/resources/updated` to the streams subscribed to it. */
    touch: (uri: string) => bus.publish({ kind: 'resource_updated', uri }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close?.();
    },
  };
}

/** `answer` with `onEnd` told once when its body ends: `early` when the client stopped reading it first. */
function tracked(answer: Response, onEnd: (early: boolean) => void): Response {
  if (!answer.body) {
    onEnd(false);
    return answer;
  }
  let ended = false;
  const end = (early: boolean) => {
    if (!ended) onEnd(early);
    ended = true;
  };
  const reader = answer.body.getReader();
  const stream = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) {
        end(false);
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      end(true);
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: answer.status, headers: answer.headers });
}

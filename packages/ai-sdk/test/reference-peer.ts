import { Client, type ClientOptions, MemoryTransport } from '@mcp/core';
import type { JsonRpcMessage, TransportEvent } from '@mcp/core/transport';
// @ts-expect-error test-servers/ is plain JS without declarations
import { serveInProcess } from '../../../test-servers/in-process.mjs';

/** A connected client of the v1 reference server (test-servers/README.md), in this process. */
export interface ReferencePeer {
  readonly client: Client;
  /** Every message the server received, in order, as it came off the wire. */
  readonly received: readonly JsonRpcMessage[];
  close(): Promise<void>;
}

/** Serves the reference server on one end of a MemoryTransport pair and connects a Client to the other. */
export async function referencePeer(
  options: { profile?: 'full' | 'minimal' } = {},
  clientOptions: ClientOptions = {},
): Promise<ReferencePeer> {
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const received: JsonRpcMessage[] = [];
  const server: { close(): Promise<void> } = await serveInProcess(
    {
      send: (message: JsonRpcMessage) => serverEnd.send(message),
      close: () => serverEnd.close(),
      async *messages(): AsyncIterable<TransportEvent> {
        for await (const event of serverEnd.messages()) {
          if (event.type === 'message') received.push(event.message as JsonRpcMessage);
          yield event;
        }
      },
    },
    options,
  );
  const client = new Client(clientEnd, clientOptions);
  await client.connect();
  return {
    client,
    received,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

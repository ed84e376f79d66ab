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

/**
 * Serves the reference server on one end of a MemoryTransport pair and connects a Client to the other.
 * A request whose method is in `unavailable` (changeable at any time) is answered with an internal
 * error before it reaches the server, as an overloaded server would.
 */
export async function referencePeer(
  options: { profile?: 'full' | 'minimal'; unavailable?: Set<string> } = {},
  clientOptions: ClientOptions = {},
): Promise<ReferencePeer> {
  const { unavailable = new Set<string>(), ...serverOptions } = options;
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const received: JsonRpcMessage[] = [];
  const server: { close(): Promise<void> } = await serveInProcess(
    {
      send: (message: JsonRpcMessage) => serverEnd.send(message),
      close: () => serverEnd.close(),
      async *messages(): AsyncIterable<TransportEvent> {
        for await (const event of serverEnd.messages()) {
          if (event.type === 'message') {
            const message = event.message as JsonRpcMessage;
            received.push(message);
            if ('method' in message && 'id' in message && unavailable.has(String(message.method))) {
              await serverEnd.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'unavailable' } });
              continue;
            }
          }
          yield event;
        }
      },
    },
    serverOptions,
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

import { Client, type ClientOptions, MemoryTransport } from '@mcp/core';
import type { JsonRpcMessage, TransportEvent } from '@mcp/core/transport';
// @ts-expect-error test-servers/ is plain JS without declarations
import { serveInProcess } from '../../../test-servers/in-process.mjs';
// @ts-expect-error test-servers/ is plain JS without declarations
import { serveListedTools } from '../../../test-servers/listed-tools.mjs';

/** A connected client of the v1 reference server (test-servers/README.md), in this process. */
export interface ReferencePeer {
  readonly client: Client;
  /** Every message the server received, in order, as it came off the wire. */
  readonly received: readonly JsonRpcMessage[];
  close(): Promise<void>;
}

/** The server's end of the pair, as test-servers/in-process.mjs takes it. */
interface ServerEnd {
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  messages(): AsyncIterable<TransportEvent>;
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
  const { peer } = await peerOf((end) => serveInProcess(end, serverOptions), unavailable, clientOptions);
  return peer;
}

/** A tool as test-servers/listed-tools.mjs lists it. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
}

/** A connected client of a server that calls itself what the test says and lists the tools it is given. */
export interface ListedToolsPeer extends ReferencePeer {
  /** Lists one more tool and sends `notifications/tools/list_changed`. */
  addTool(tool: ListedTool): Promise<void>;
}

/** Serves test-servers/listed-tools.mjs (`serverInfo.name` = `name`, exactly `tools`) to a new Client. */
export async function listedToolsPeer(name: string, tools: readonly ListedTool[]): Promise<ListedToolsPeer> {
  const { peer, server } = await peerOf<ListedToolsPeer>(
    (end) => serveListedTools(end, { name, tools }),
    new Set(),
    {},
  );
  return { ...peer, addTool: (tool) => server.addTool(tool) };
}

async function peerOf<Server extends { close(): Promise<void> }>(
  serve: (end: ServerEnd) => Promise<Server>,
  unavailable: Set<string>,
  clientOptions: ClientOptions,
): Promise<{ peer: ReferencePeer; server: Server }> {
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const received: JsonRpcMessage[] = [];
  const server = await serve({
    send: (message) => serverEnd.send(message),
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
  });
  const client = new Client(clientEnd, clientOptions);
  await client.connect();
  const peer: ReferencePeer = {
    client,
    received,
    async close() {
      await client.close();
      await server.close();
    },
  };
  return { peer, server };
}

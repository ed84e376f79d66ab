import { fileURLToPath } from 'node:url';
import { StdioTransport } from '@mcp/node-stdio';
import { expect } from 'vitest';
import { Client, type ClientOptions, StreamableHttpTransport } from '../../../src/index.js';
import { useClientGuards, useHttpServers } from '../../transport/http/harness.js';

/** A transport the Client takes. */
export type Transport = ConstructorParameters<typeof Client>[0];

const taskEntry = fileURLToPath(new URL('../../../../../test-servers/tasks/stdio.mjs', import.meta.url));

/**
 * The task test servers of one revision (test-servers/tasks) and how to reach
 * them: over stdio (a child per client) and Streamable HTTP (`/tasks-2025` or
 * `/tasks-2026` on the modes server), plus `connect(transport, options)`, which
 * gives each client its own era cache, closes it after the test, and checks the
 * era the revision speaks. Call at the top of a test file.
 */
export function useTaskServers(revision: '2025-11-25' | '2026-07-28') {
  const servers = useHttpServers();
  const open = useClientGuards();
  const modern = revision === '2026-07-28';
  const transports: [string, () => Transport][] = [
    [
      'stdio',
      () =>
        new StdioTransport({
          command: process.execPath,
          args: modern ? [taskEntry, '--revision', revision] : [taskEntry],
          closeTimeout: 500,
        }),
    ],
    [
      'Streamable HTTP',
      () =>
        new StreamableHttpTransport(
          modern ? `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}` : `${servers.modes}/tasks-2025`,
        ),
    ],
  ];
  const connect = async (transport: Transport, options: ClientOptions = {}) => {
    const client = new Client(transport, { eraCache: new Map(), ...options });
    open.push(client);
    await client.connect();
    expect(client.era).toBe(modern ? 'modern' : 'legacy');
    return client;
  };
  return { servers, open, transports, connect };
}

/**
 * `transport` as it is, but every message the client sends through it is also
 * recorded in `sent`, so a test sees what went on the wire (hooks and private
 * state stay the transport's own: everything else is forwarded to it).
 */
export function recording(transport: Transport): { transport: Transport; sent: unknown[] } {
  const sent: unknown[] = [];
  const recorded = new Proxy(transport, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'send') {
        return (message: unknown, ...rest: unknown[]) => {
          sent.push(message);
          return (value as (...args: unknown[]) => unknown).apply(target, [message, ...rest]);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { transport: recorded, sent };
}

/** The `method` of each request and notification in `sent`, in order. */
export const methodsOf = (sent: readonly unknown[]): string[] =>
  sent.flatMap((message) => {
    const method = (message as { method?: unknown }).method;
    return typeof method === 'string' ? [method] : [];
  });

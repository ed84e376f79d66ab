import { afterEach, beforeEach, expect } from 'vitest';
import { Client, type ClientOptions, MemoryTransport } from '../../src/index.js';
import { type HandshakeOptions, ScriptedServer } from './scripted-server.js';

/** A client wired to a scripted server, plus everything the client reported to `onError`. */
export interface Scripted {
  readonly client: Client;
  readonly server: ScriptedServer;
  readonly errors: Error[];
}

/** Every server capability a legacy server can declare. */
export const ALL_CAPABILITIES = {
  tools: {},
  resources: { subscribe: true },
  prompts: {},
  completions: {},
  logging: {},
};

const live: Scripted[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown): void => {
  rejections.push(reason);
};

/**
 * Registers the per-test guards of a client suite: any unhandled rejection fails
 * the test that caused it, each scripted server is verified (no unmet step, no
 * unconsumed message), and every client is closed.
 */
export function useScriptedClients(): void {
  beforeEach(() => {
    rejections.length = 0;
    process.on('unhandledRejection', onRejection);
  });
  afterEach(async () => {
    // Let late rejections and in-flight messages surface before judging.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const opened = live.splice(0);
    try {
      for (const { server } of opened) server.verify();
    } finally {
      for (const { client, server } of opened) {
        await client.close();
        await server.close();
      }
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections, 'unhandled rejections').toEqual([]);
  });
}

/** A client and its scripted server over a fresh `MemoryTransport` pair, not yet connected. */
export function scripted(options: ClientOptions = {}): Scripted {
  const [clientEnd, serverEnd] = MemoryTransport.createPair();
  const errors: Error[] = [];
  const client = new Client(clientEnd, {
    ...options,
    onError: (error) => {
      errors.push(error);
      options.onError?.(error);
    },
  });
  const pair = { client, server: new ScriptedServer(serverEnd), errors };
  live.push(pair);
  return pair;
}

/** A client connected to a scripted server that declared `handshake.capabilities` (default: all). */
export async function connected(options: ClientOptions = {}, handshake: HandshakeOptions = {}): Promise<Scripted> {
  const pair = scripted(options);
  await Promise.all([pair.client.connect(), pair.server.handshake({ capabilities: ALL_CAPABILITIES, ...handshake })]);
  return pair;
}

/** A promise plus its resolver, for handlers a test holds open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { connected, useScriptedClients } from './harness.js';

useScriptedClients();

const SAMPLE_PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 8 };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } as const;

/**
 * Makes imports of the client's answering module fail, as a chunk download that
 * fails does in a browser, until `restore()`. This file's module graph is its
 * own: no other test loaded the module first.
 */
function failAnsweringLoads(): { restore: () => void } {
  const path = '../../src/client/answering/index.js';
  vi.doMock(path, () => {
    throw new TypeError('Failed to fetch dynamically imported module');
  });
  return { restore: () => vi.doUnmock(path) };
}

describe('answering the server, loaded on demand', () => {
  it('answers a server ping without loading the answering module', async () => {
    const load = failAnsweringLoads();
    try {
      const { server, errors } = await connected();
      expect((await server.request('ping')).result).toEqual({});
      expect(errors).toEqual([]);
    } finally {
      load.restore();
    }
  });

  it('a server request whose handlers cannot load gets an error reply, and the next one loads them again', async () => {
    const load = failAnsweringLoads();
    // connect() loads the handlers' module when the app gave handlers; a failed load does not fail connect.
    const { server } = await connected({ sampling: async () => SAMPLED });
    const refused = await server.request('sampling/createMessage', SAMPLE_PARAMS);
    load.restore();
    expect(refused.error?.code).toBe(ErrorCode.InternalError);
    expect((await server.request('sampling/createMessage', SAMPLE_PARAMS)).result).toEqual(SAMPLED);
  });

  it('hands the notifications that arrive while the module loads to onNotification in the order they came', async () => {
    const seen: string[] = [];
    const { server } = await connected({ onNotification: (method) => seen.push(method) });
    const methods = Array.from({ length: 20 }, (_, i) => `notifications/test/${i}`);
    await Promise.all(methods.map((method) => server.notify(method)));
    await vi.waitFor(() => expect(seen).toHaveLength(methods.length));
    expect(seen).toEqual(methods);
  });
});

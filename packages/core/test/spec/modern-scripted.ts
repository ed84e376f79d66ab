import type { ScriptedServer } from '../client/scripted-server.js';

/** The `server/discover` result of a scripted 2026-07-28 server declaring every capability these tests use. */
export const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {} },
  ttlMs: 0,
  cacheScope: 'private',
};

/** Plays the server's part of a 2026-07-28 connect: answers the client's `server/discover` probe. */
export async function discover(server: ScriptedServer): Promise<void> {
  const probe = await server.expect('server/discover');
  await server.reply(probe.id, DISCOVER);
}

/** The `_meta` of a request the client sent (every 2026-07-28 request has one). */
export function metaOf(message: { params?: Record<string, unknown> }): Record<string, unknown> {
  return (message.params?._meta ?? {}) as Record<string, unknown>;
}

/** An input round asking for one form elicitation under `key`. */
export function elicitRound(key: string, requestState?: string) {
  const ask = {
    method: 'elicitation/create',
    params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
  };
  return { resultType: 'input_required', inputRequests: { [key]: ask }, ...(requestState && { requestState }) };
}

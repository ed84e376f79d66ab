import { describe, expect, it } from 'vitest';
import type { ElicitationHandler } from '../../src/index.js';
import { scripted, useScriptedClients } from '../client/harness.js';
import { discover, elicitRound, metaOf } from './modern-scripted.js';

useScriptedClients();

const elicitation: ElicitationHandler = () => ({ action: 'accept', content: { name: 'Ada' } });
const DONE = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };

/** Checklist §5 (2026-07-28 multi round-trip requests): what each retry must and must not carry. */
describe('spec: MRTR retries', () => {
  it('sends no requestState on a retry when the server sent none', async () => {
    const { client, server } = scripted({ elicitation });
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('ask');
    const first = await server.expect('tools/call');
    await server.reply(first.id, elicitRound('who'));
    const retry = await server.expect('tools/call');
    expect(retry.params).toMatchObject({ inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } });
    expect(retry.params).not.toHaveProperty('requestState');
    await server.reply(retry.id, DONE);
    expect((await call).text).toBe('done');
  });

  it('gives a retry a new id and a new progressToken, and rebuilds its _meta', async () => {
    const { client, server } = scripted({ elicitation });
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('ask', {}, { onProgress: () => {} });
    const first = await server.expect('tools/call');
    await server.reply(first.id, elicitRound('who', 'opaque-1'));
    const retry = await server.expect('tools/call');
    expect(retry.id).not.toBe(first.id);
    expect(metaOf(retry).progressToken).toBeDefined();
    expect(metaOf(retry).progressToken).not.toBe(metaOf(first).progressToken);
    expect(metaOf(retry)['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(metaOf(retry)['io.modelcontextprotocol/clientCapabilities']).toEqual(
      metaOf(first)['io.modelcontextprotocol/clientCapabilities'],
    );
    await server.reply(retry.id, DONE);
    await call;
  });

  it('keeps the input rounds of two concurrent calls apart: each retry carries only its own state', async () => {
    const { client, server } = scripted({ elicitation });
    await Promise.all([client.connect(), discover(server)]);
    const callA = client.callTool('a');
    const callB = client.callTool('b');
    const [firstA, firstB] = [await server.expect('tools/call'), await server.expect('tools/call')];
    await server.reply(firstB.id, elicitRound('for-b', 'state-b'));
    await server.reply(firstA.id, elicitRound('for-a', 'state-a'));
    const retries = [await server.expect('tools/call'), await server.expect('tools/call')];
    const byName = Object.fromEntries(retries.map((retry) => [retry.params?.name as string, retry]));
    expect(byName.a?.params).toMatchObject({ requestState: 'state-a', inputResponses: { 'for-a': {} } });
    expect(byName.a?.params?.inputResponses).not.toHaveProperty('for-b');
    expect(byName.b?.params).toMatchObject({ requestState: 'state-b', inputResponses: { 'for-b': {} } });
    expect(byName.b?.params?.inputResponses).not.toHaveProperty('for-a');
    for (const retry of retries) await server.reply(retry.id, DONE);
    await Promise.all([callA, callB]);
  });

  it('never caches the result of a retry, whatever ttlMs it carries', async () => {
    const { client, server } = scripted({ elicitation });
    await Promise.all([client.connect(), discover(server)]);
    const contents = {
      resultType: 'complete',
      contents: [{ uri: 'test://r', text: 'x' }],
      ttlMs: 60_000,
      cacheScope: 'public',
    };
    const read = client.readResource('test://r');
    const first = await server.expect('resources/read');
    await server.reply(first.id, elicitRound('who', 's'));
    const retry = await server.expect('resources/read');
    await server.reply(retry.id, contents);
    await read;
    const again = client.readResource('test://r');
    const fresh = await server.expect('resources/read');
    expect(fresh.params).not.toHaveProperty('inputResponses');
    await server.reply(fresh.id, contents);
    await again;
  });
});

import { resultLine, SERVER_INFO } from './handshake.mjs';
import { sendBody } from './wire.mjs';

/**
 * Protocol: well-formed JSON-RPC that breaks the MCP rules a client relies
 * on: a version nobody asked for, a `resultType` nobody declared, and
 * input rounds that never end.
 */

export const PROTOCOL_FAULTS = {
  'bad-version': {
    family: 'protocol',
    summary: 'initialize answered with protocol version 1999-01-01; server/discover with only that version',
    handshake: (ctx) => {
      const { id, method } = ctx.message;
      if (method === 'server/discover') {
        const result = { resultType: 'complete', supportedVersions: ['1999-01-01'], capabilities: {} };
        return sendBody(ctx, resultLine(id, JSON.stringify(result)));
      }
      if (method === 'initialize') {
        const result = { protocolVersion: '1999-01-01', capabilities: {}, serverInfo: SERVER_INFO };
        return sendBody(ctx, resultLine(id, JSON.stringify(result)));
      }
      return undefined;
    },
  },
  'unknown-result-type': {
    family: 'protocol',
    summary: 'a tools/call result with resultType "bogus" (2026-07-28: invalid)',
    call: (ctx) =>
      sendBody(
        ctx,
        resultLine(ctx.message.id, JSON.stringify({ resultType: 'bogus', content: [{ type: 'text', text: 'x' }] })),
      ),
  },
  'undeclared-task': {
    family: 'protocol',
    summary: 'a tools/call result with resultType "task" although the client never declared the Tasks extension',
    call: (ctx) => {
      const task = { resultType: 'task', taskId: 'task-1', status: 'working', createdAt: new Date().toISOString() };
      return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify(task)));
    },
  },
  'input-rounds-forever': {
    family: 'protocol',
    summary: 'a 2026-07-28 call answered with input_required after every retry, forever',
    call: (ctx) => {
      const round = Number(ctx.message.params?.requestState ?? 0) + 1;
      const ask = { mode: 'form', message: `Round ${round}?`, requestedSchema: { type: 'object', properties: {} } };
      const result = {
        resultType: 'input_required',
        inputRequests: { again: { method: 'elicitation/create', params: ask } },
        requestState: String(round),
      };
      return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify(result)));
    },
  },
};

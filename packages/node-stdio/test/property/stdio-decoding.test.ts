import { McpError, ProtocolError, TransportError, type TransportEvent } from '@mcp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, chunkingArb, framingText } from '../../../core/test/property/chunkings.js';
import { fcParams } from '../../../core/test/property/fc-params.js';
import { StdioTransport } from '../../src/index.js';

/** A child that writes the chunks given in CHUNKS (base64, comma-separated) to stdout, a tick apart, then exits. */
const WRITER = `
const chunks = (process.env.CHUNKS ?? '').split(',').map((c) => Buffer.from(c, 'base64'));
(async () => {
  for (const piece of chunks) {
    await new Promise((resolve) => process.stdout.write(piece, resolve));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
})();
`;

/** Every event a real StdioTransport delivers for what the child wrote, and how the stream ended. */
async function receive(chunks: readonly Uint8Array[]): Promise<{ events: TransportEvent[]; ended: unknown }> {
  const env = { CHUNKS: chunks.map((piece) => Buffer.from(piece).toString('base64')).join(',') };
  const transport = new StdioTransport({ command: process.execPath, args: ['-e', WRITER], env, stderr: 'ignore' });
  const events: TransportEvent[] = [];
  let ended: unknown;
  try {
    for await (const event of transport.messages()) events.push(event);
  } catch (error) {
    ended = error;
  } finally {
    await transport.close();
  }
  return { events, ended };
}

/** What the stdio framing and decoding must make of `bytes`: each non-blank line's JSON value and length, or a ProtocolError. */
function expected(bytes: Uint8Array): TransportEvent[] {
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  return lines
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return { type: 'message', message: JSON.parse(line) as unknown, size: line.length };
      } catch {
        return { type: 'error', error: expect.any(ProtocolError) as Error };
      }
    });
}

describe('stdio decoding of whatever a server writes', () => {
  const output = fc.oneof(
    framingText(['{"jsonrpc":"2.0","method":"notifications/x"}\n', '[]\n', 'null\n', '{"a":']),
    fc.array(fc.jsonValue(), { maxLength: 4 }).map((values) => values.map((v) => `${JSON.stringify(v)}\n`).join('')),
  );

  it('delivers each line as its JSON value or a ProtocolError, in order, then ends with a TransportError', async () => {
    await fc.assert(
      fc.asyncProperty(output, chunkingArb, async (text, chunking) => {
        const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
        // One byte per chunk would mean a child tick per byte: cuts are enough here.
        const pieces = chunking.kind === 'bytes' ? [bytes] : chunk(bytes, chunking);
        const { events, ended } = await receive(pieces);
        expect(events).toEqual(expected(bytes));
        // The server exited without being asked to: the stream ends with a typed error.
        expect(ended).toBeInstanceOf(TransportError);
        expect(ended).toBeInstanceOf(McpError);
      }),
      fcParams(25),
    );
  }, 60_000);
});

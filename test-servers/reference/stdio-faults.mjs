/**
 * Hooks on the v1 stdio transport that let tests watch and break the server
 * from the outside, as a real misbehaving process would:
 * - `trace`: every message received is written to stderr as `mcp-trace <json>`,
 *   so a test can prove what the client sent (or that it sent nothing);
 * - `noise`: a line that is not JSON goes to stdout before every message sent;
 * - `exitOnCall`: a `tools/call` of that tool makes the process exit with code 3
 *   before any answer, like a crash in the middle of a call.
 * @param {{ onmessage?: (message: unknown, extra?: unknown) => void, send: (message: unknown, options?: unknown) => Promise<void> }} transport
 * @param {{ trace: boolean, noise: boolean, exitOnCall: string | undefined }} faults
 */
export function instrumentStdioTransport(transport, faults) {
  // Called before `connect()`, which assigns `onmessage`: wrap whatever it assigns,
  // so not even the first message slips past.
  /** @type {((message: unknown, extra?: unknown) => void) | undefined} */
  let deliver;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (deliver ? onmessage : undefined),
    set: (handler) => {
      deliver = handler;
    },
  });
  /** @param {unknown} message @param {unknown} [extra] */
  function onmessage(message, extra) {
    if (faults.trace) process.stderr.write(`mcp-trace ${JSON.stringify(message)}\n`);
    const call = /** @type {{ method?: string, params?: { name?: string } }} */ (message);
    if (faults.exitOnCall && call.method === 'tools/call' && call.params?.name === faults.exitOnCall) {
      process.exit(3);
    }
    deliver?.(message, extra);
  }
  if (faults.noise) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      process.stdout.write('this line is not JSON-RPC\n');
      return send(message, options);
    };
  }
}

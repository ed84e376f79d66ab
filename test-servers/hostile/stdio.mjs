#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { FLOOD_NOTIFICATIONS } from './flood-faults.mjs';
import { CHURN_RESPONSES } from './frame-faults.mjs';
import { healthyAnswer, isHostileCall, resultLine, textResult } from './handshake.mjs';
import { deepResult, protoResult, strayIds } from './payloads.mjs';

/**
 * The hostile MCP server over stdio: `node stdio.mjs --misbehave <name> [--era
 * legacy|modern]`. Newline-delimited JSON-RPC like any stdio server, healthy
 * (`echo` answers) except for the frame-level misbehaviour `<name>` on
 * `tools/call hostile`. Switches are listed in README.md.
 */

const SWITCHES = {
  healthy: 'no misbehaviour',
  'oversized-line': 'answers with one well-formed 4 MiB line',
  'endless-line': 'writes one line that never ends (until its stdout is closed)',
  'malformed-json': 'writes a cut-off JSON line and a line of plain text, then the answer',
  'binary-line': 'writes a line of bytes that are not UTF-8 text, then the answer',
  'id-churn': `writes ${CHURN_RESPONSES} responses to unknown ids (__proto__, constructor, 2^53…), then the answer`,
  'notification-flood': `writes ${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications/message at 10,000/s, then the answer`,
  'proto-keys': 'answers with __proto__, constructor and prototype keys at every level',
  'deep-json': 'answers with a result nested 100,000 arrays deep',
};

function parseArgs(argv) {
  const options = { misbehave: 'healthy', era: 'legacy' };
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (flag === '--misbehave' && value !== undefined && value in SWITCHES) options.misbehave = value;
    else if (flag === '--era' && (value === 'legacy' || value === 'modern')) options.era = value;
    else {
      process.stderr.write(`usage: stdio.mjs --misbehave <${Object.keys(SWITCHES).join('|')}> [--era legacy|modern]\n`);
      process.exit(2);
    }
  }
  return options;
}

/** Writes `text` to stdout, waiting when the pipe is full; false once stdout is gone. */
function write(text) {
  if (process.stdout.destroyed) return Promise.resolve(false);
  if (process.stdout.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    process.stdout.once('drain', () => resolve(true));
    process.stdout.once('close', () => resolve(false));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const MISBEHAVIOURS = {
  'oversized-line': (message, era) =>
    write(`${resultLine(message.id, JSON.stringify(textResult('A'.repeat(4 * 1024 * 1024), era)))}\n`),
  async 'endless-line'() {
    const chunk = 'A'.repeat(64 * 1024);
    if (!(await write('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"'))) return;
    while (await write(chunk)) {}
  },
  async 'malformed-json'(message, era) {
    await write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[\n`);
    await write('this line is not JSON at all\n');
    await write(`${resultLine(message.id, JSON.stringify(textResult('after garbage', era)))}\n`);
  },
  async 'binary-line'(message, era) {
    await write(Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0a]));
    await write(`${resultLine(message.id, JSON.stringify(textResult('after bytes', era)))}\n`);
  },
  async 'id-churn'(message, era) {
    for (const id of strayIds(CHURN_RESPONSES)) await write(`${resultLine(id, '{"content":[]}')}\n`);
    await write(`${resultLine(message.id, JSON.stringify(textResult('after churn', era)))}\n`);
  },
  async 'notification-flood'(message, era) {
    for (let sent = 0; sent < FLOOD_NOTIFICATIONS; sent += 100) {
      let batch = '';
      for (let index = sent; index < sent + 100; index++) {
        const params = { level: 'info', logger: 'flood', data: `message ${index}` };
        batch += `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params })}\n`;
      }
      if (!(await write(batch))) return;
      await sleep(10);
    }
    await write(`${resultLine(message.id, JSON.stringify(textResult('flood over', era)))}\n`);
  },
  'proto-keys': (message, era) => write(`${resultLine(message.id, withResultType(protoResult(), era))}\n`),
  'deep-json': (message, era) => write(`${resultLine(message.id, withResultType(deepResult(), era))}\n`),
};

function withResultType(resultJson, era) {
  return era === 'modern' ? `{"resultType":"complete",${resultJson.slice(1)}` : resultJson;
}

const { misbehave, era } = parseArgs(process.argv.slice(2));
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write(`hostile stdio server: ignoring a line that is not JSON\n`);
    return;
  }
  const act = isHostileCall(message) ? MISBEHAVIOURS[misbehave] : undefined;
  if (act) {
    void act(message, era);
    return;
  }
  const answer = healthyAnswer(message, era);
  if (answer !== undefined) void write(`${answer}\n`);
});
lines.on('close', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));

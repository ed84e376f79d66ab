/**
 * The conformance app: an ordinary @mcp/core user. It connects, lists what the
 * server offers and uses it as a plan says, answers elicitations by accepting
 * the form's defaults, and logs what happens on stderr.
 */
import { Client, RpcError, StreamableHttpTransport } from '@mcp/core';
import { formDefaults, sampleArguments } from './sample-values.mjs';

/** @typedef {import('./plans.mjs').Plan} Plan */

const log = (/** @type {string} */ line) => process.stderr.write(`[app] ${line}\n`);

/**
 * @typedef {object} AppOptions
 * @property {string} url  the server's MCP endpoint
 * @property {Plan} plan
 * @property {string} [protocolVersion]  pin this revision instead of negotiating
 * @property {number} [requestTimeout]
 */

/** Runs the app once; throws on the first failure that is not a server's JSON-RPC answer. */
export async function runApp(/** @type {AppOptions} */ options) {
  const transport = new StreamableHttpTransport(options.url);
  const client = new Client(transport, {
    clientInfo: { name: 'mcp-conformance-app', version: '0.1.0' },
    ...(options.protocolVersion && { protocolVersion: options.protocolVersion }),
    ...(options.requestTimeout && { requestTimeout: options.requestTimeout }),
    elicitation: {
      handler: (request) => {
        const schema = 'requestedSchema' in request ? request.requestedSchema : undefined;
        log(`elicitation: ${request.message}`);
        if (!schema) return { action: 'decline' };
        return { action: 'accept', content: formDefaults(schema) };
      },
    },
    onWarning: (message) => log(`warning: ${message}`),
    onError: (error) => log(`error: ${error.message}`),
  });
  try {
    await client.connect();
    log(`connected: ${client.era} era, protocol ${client.protocolVersion}`);
    await useTools(client, options.plan);
    if (options.plan.browse !== false) await browse(client);
  } finally {
    await client.close();
  }
}

async function useTools(/** @type {Client} */ client, /** @type {Plan} */ plan) {
  if (!client.serverCapabilities?.tools) return;
  const tools = await client.listTools();
  log(`tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
  const echo = plan.schemaEcho;
  if (echo) {
    const source = tools.find((tool) => tool.name === echo.from);
    if (!source) throw new Error(`no tool ${echo.from} to echo the schema of`);
    await call(client, echo.to, { [echo.argument]: source.inputSchema });
    return;
  }
  const calls =
    plan.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }));
  for (const { name, arguments: args = {} } of calls) await call(client, name, args);
}

async function call(
  /** @type {Client} */ client,
  /** @type {string} */ name,
  /** @type {Record<string, unknown>} */ args,
) {
  const result = await answered(`call ${name}`, () => client.callTool(name, args));
  if (result) log(`${name} -> ${result.isError ? 'error: ' : ''}${result.text}`);
}

/**
 * Runs one operation; a JSON-RPC error is the server's answer to it (logged, and
 * the app goes on), while any other failure (transport, protocol) ends the run.
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} operation
 * @returns {Promise<T | undefined>}
 */
async function answered(what, operation) {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    log(`${what}: the server answered ${error.message}`);
    return undefined;
  }
}

/** Reads every listed resource and renders every listed prompt, as a browsing user would. */
async function browse(/** @type {Client} */ client) {
  const capabilities = client.serverCapabilities;
  if (capabilities?.resources) {
    for (const resource of await client.listResources()) {
      const read = await answered(`read ${resource.uri}`, () => client.readResource(resource.uri));
      if (read) log(`read ${resource.uri}: ${read.contents.length} content(s)`);
    }
  }
  if (capabilities?.prompts) {
    for (const prompt of await client.listPrompts()) {
      /** @type {Record<string, string>} */
      const args = {};
      for (const argument of prompt.arguments ?? []) if (argument.required) args[argument.name] = 'example';
      const rendered = await answered(`prompt ${prompt.name}`, () => client.getPrompt(prompt.name, args));
      if (rendered) log(`prompt ${prompt.name}: ${rendered.messages.length} message(s)`);
    }
  }
}

/**
 * The conformance app: an ordinary @mcp/core user. It connects, lists what the
 * server offers and uses it as a plan says, answers elicitations by accepting
 * the form's defaults, and logs what happens on stderr.
 */
import { Client, OAuthProvider, RpcError, StreamableHttpTransport } from '@mcp/core';
import { listSkills, loadSkill, SKILLS_EXTENSION, SkillVerificationError, serverHasSkills } from '@mcp/core/skills';
import { formDefaults, sampleArguments } from './sample-values.mjs';

/** @typedef {import('./plans.mjs').Plan} Plan */

const log = (/** @type {string} */ line) => process.stderr.write(`[app] ${line}\n`);

/**
 * @typedef {object} AppOptions
 * @property {string} url  the server's MCP endpoint
 * @property {Plan} plan
 * @property {string} [protocolVersion]  pin this revision instead of negotiating
 * @property {number} [requestTimeout]
 * @property {Record<string, unknown>} [context]  the scenario's data (MCP_CONFORMANCE_CONTEXT)
 */

/** Runs the app once; throws on the first failure that is not a server's JSON-RPC answer. */
export async function runApp(/** @type {AppOptions} */ options) {
  const context = options.context ?? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
  const transport = new StreamableHttpTransport(options.url, { auth: oauthProvider(context) });
  const client = new Client(transport, {
    clientInfo: { name: 'mcp-conformance-app', version: '0.1.0' },
    // The app is a skills host: it says so (SEP-2133 extension negotiation).
    capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
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
    const skillFiles = await useSkills(client, options.plan);
    if (options.plan.browse !== false) await browse(client, skillFiles);
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

/**
 * Skills as a host uses them (SEP-2640): the listing builds the registry and
 * reads no file; a skill is loaded — SKILL.md and its files, each verified
 * against the entry — only when the task needs it (`plan.useSkills`). A skill
 * that fails verification is refused and the app goes on without it.
 * Returns the URIs of every listed skill file, which only loading may read.
 * @returns {Promise<Set<string>>}
 */
async function useSkills(/** @type {Client} */ client, /** @type {Plan} */ plan) {
  /** @type {Set<string>} */
  const files = new Set();
  if (!serverHasSkills(client)) return files;
  const skills = await listSkills(client, {
    onInvalidEntry: (_entry, reason) => log(`skills: left out an invalid entry: ${reason}`),
  });
  for (const skill of skills) {
    log(`skill ${skill.frontmatter.name}: ${skill.frontmatter.description}`);
    files.add(skill.uri);
    if (Array.isArray(skill.resources)) for (const resource of skill.resources) files.add(resource.uri);
  }
  for (const name of plan.useSkills ?? []) {
    const entry = skills.find((skill) => skill.frontmatter.name === name);
    if (!entry) {
      log(`skill ${name}: not listed`);
      continue;
    }
    try {
      const loaded = await loadSkill(client, entry);
      log(`skill ${name}: loaded ${loaded.files.length} verified file(s)`);
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      log(`skill ${name}: refused (${error.reason}): ${error.message}`);
    }
  }
  return files;
}

/**
 * Reads every listed resource and renders every listed prompt, as a browsing
 * user would; skill files are left to the skill-loading path.
 */
async function browse(/** @type {Client} */ client, /** @type {Set<string>} */ skillFiles) {
  const capabilities = client.serverCapabilities;
  if (capabilities?.resources) {
    for (const resource of await client.listResources()) {
      if (skillFiles.has(resource.uri)) continue;
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

/** Where this app says its Client ID Metadata Document lives (what the conformance AS expects). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** The redirect URI this app registers; the headless handler reads the redirect instead of serving it. */
const REDIRECT_URI = 'http://localhost:3000/callback';

/**
 * OAuth as a headless app sets it up: its CIMD URL, a redirect URI, pre-registered
 * credentials when the context names them with their issuer, and an `authorize`
 * handler that follows the authorization URL (the conformance AS approves at
 * once) and returns the callback URL it redirects to. A context that configures a
 * machine identity (client credentials without an issuer, a workload JWT, an
 * enterprise IdP session) selects the matching grant instead, as a service would
 * from its settings. DPoP-bound tokens are preferred wherever the AS offers them.
 */
function oauthProvider(/** @type {Record<string, unknown>} */ context) {
  const { client_id: clientId, client_secret: clientSecret, issuer } = context;
  /** @type {import('@mcp/core').ClientCredentials | undefined} */
  const client =
    typeof clientId === 'string'
      ? { client_id: clientId, ...(typeof clientSecret === 'string' && { client_secret: clientSecret }) }
      : undefined;
  /** @type {import('@mcp/core').OAuthOptions['clients']} */
  const clients = typeof issuer === 'string' && client ? { [issuer]: client } : undefined;
  const grant = machineGrant(context, client);
  return new OAuthProvider({
    redirectUri: REDIRECT_URI,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientMetadata: { client_name: 'mcp-conformance-app', application_type: 'native' },
    ...(clients && { clients }),
    ...(grant && { grant }),
    dpop: true,
    authorize: async (url) => {
      log(`authorize: ${url.origin}${url.pathname}`);
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
      return new URL(location, url);
    },
  });
}

/**
 * The grant a machine configuration implies: an enterprise IdP session → token
 * exchange (enterprise-managed authorization); a workload identity token → JWT
 * bearer; a private key, or a secret without an issuer → client credentials.
 * Anything else: the user's authorization code flow.
 * @param {Record<string, unknown>} context
 * @param {import('@mcp/core').ClientCredentials | undefined} client
 * @returns {import('@mcp/core').Grant | undefined}
 */
function machineGrant(context, client) {
  const text = (/** @type {string} */ key) => (typeof context[key] === 'string' ? context[key] : undefined);
  // Machine credentials go only to pinned authorization servers: here, the harness's, on this machine.
  const issuer = (/** @type {string} */ url) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
  const idToken = text('idp_id_token');
  const idpClientId = text('idp_client_id');
  if (idToken && idpClientId) {
    const idpIssuer = text('idp_issuer');
    const idpTokenEndpoint = text('idp_token_endpoint');
    return {
      type: 'token_exchange',
      issuer,
      subjectToken: async () => idToken,
      idp: {
        client: { client_id: idpClientId },
        ...(idpIssuer && { issuer: idpIssuer }),
        ...(idpTokenEndpoint && { tokenEndpoint: idpTokenEndpoint }),
      },
      ...(client && { client }),
    };
  }
  const workloadJwt = text('valid_jwt');
  if (workloadJwt) {
    return {
      type: 'jwt_bearer',
      issuer,
      assertion: async () => workloadJwt,
      ...(client && { client }),
    };
  }
  const privateKey = text('private_key_pem');
  if (client && privateKey) {
    const alg = text('signing_algorithm');
    return { type: 'client_credentials', issuer, client: { ...client, private_key: privateKey, ...(alg && { alg }) } };
  }
  if (client?.client_secret !== undefined && typeof context.issuer !== 'string') {
    return { type: 'client_credentials', issuer, client };
  }
  return undefined;
}
